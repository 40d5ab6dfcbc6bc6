%% The seq_trace steps of a scenario (cases/README.md "seq_trace"): the
%% scenario's tracer becomes the system seq tracer, and the scenario
%% processes set tokens and print.
-module(tcs_seq).
-export([tracer/2, action/1]).

%% tracer(Names, Ctx): `seq_trace tracer`, from the harness.  The control line
%% leaves the tracer module out, as the one of erlang:trace/3 leaves out
%% {tracer, Module, State}, and shows the state.  The call raises when the
%% tracer answers anything but `trace` to its trace_status probe
%% (SEQ-TRACER-PROBE): that is a control line the model predicts, and the
%% scenario goes on.
tracer(Names, #{collector := C, tracer := Mod, tracer_state := State0}) ->
    State = tcs_runner_lib:tracer(State0, Names),
    Tracer = case Mod of
                 process -> State;  % the tracer port (PORT-TRACER-SEQ)
                 _ -> {Mod, State}
             end,
    Result = try {ok, seq_trace:set_system_tracer(Tracer)}
             catch Class:Reason -> {raised, Class, Reason}
             end,
    tcs_runner_lib:ctl(C, ["seq_trace:set_system_tracer(", tcs_runner_lib:canon(State, Names), ")"],
                       Result, Names),
    {ok, Names}.

%% action(Step): what the scenario process does for a seq_trace step.
action({seq_token, Who, Key, Value}) -> {Who, {call, seq_trace, set_token, [Key, Value]}};
action({seq_print, Who, Term}) -> {Who, {call, seq_trace, print, [Term]}};
action({seq_print, Who, Label, Term}) -> {Who, {call, seq_trace, print, [Label, Term]}};
action({seq_reset, Who}) -> {Who, {call, seq_trace, set_token, [[]]}}.
