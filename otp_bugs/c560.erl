%% C-560 (found by this suite, issue 26; not reported upstream): a trace flag function
%% (enable_trace/1,2, disable_trace/1,2, trace/2,3) in a match spec given to
%% erlang:match_spec_test(Args, MS, trace) ends the node with a segmentation fault on 27.3.4.1
%% and 29.1.2; 25.2.3 answers {ok,true,[],[]}. Seen for each of the six forms in a fresh node,
%% in a process traced or not. The test runs the spec in its caller with no trace session of a
%% call (27 and 29 keep the tracer per session).
-module(c560).
-export([run/0]).

run() ->
    Answer = erlang:match_spec_test([a], [{'_', [], [{enable_trace, send}]}], trace),
    otp_bugs_lib:verdict(Answer =:= {ok, true, [], []}).
