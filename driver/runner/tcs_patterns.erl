%% The `pattern` step (cases/README.md): erlang:trace_pattern/3 from the
%% harness.  The option `meta` becomes {meta, TracerModule, State}, where State
%% is a tracer state process of its own, started with the job (printed <meta>,
%% see tcs_procflags:start_state/1), or with `tracer process` {meta, Pid}, Pid
%% the legacy tracer process <tracer> (as trace_session_SUITE meta/1); the count of {'_','_','_'} depends on what the
%% node has loaded, so a positive count prints as the placeholder _FunctionCount.
-module(tcs_patterns).
-export([set/6]).

%% set(Target, MS, Opts, Names, TracerModule, Collector) -> {Outcome, Names1}
%% Outcome: {ok, Value} | {placeholder, Text} | {raised, Class, Reason}.
set(Target, MS, Opts, Names, Mod, _Collector) ->
    Real = [case O of meta -> meta_option(Mod, Names); _ -> tcs_runner_lib:recorder_named(O, Mod) end || O <- Opts],
    Outcome = try {ok, erlang:trace_pattern(Target, MS, Real)}
              catch Class:Reason -> {raised, Class, Reason}
              end,
    {count(Target, Outcome), Names}.

meta_option(process, Names) -> {meta, maps:get(tracer, Names)};
meta_option(Mod, Names) -> {meta, Mod, maps:get(meta, Names)}.

count({'_', '_', '_'}, {ok, N}) when is_integer(N), N > 0 -> {placeholder, "_FunctionCount"};
count(_, Outcome) -> Outcome.

