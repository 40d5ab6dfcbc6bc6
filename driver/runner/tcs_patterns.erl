%% The `pattern` step (cases/README.md): erlang:trace_pattern/3 from the
%% harness.  The option `meta` becomes {meta, TracerModule, State}, where State
%% is a tracer state process of its own, started with the job (printed <meta>,
%% see tcs_procflags:start_state/1); the count of {'_','_','_'} depends on what the
%% node has loaded, so a positive count prints as the placeholder _FunctionCount.
-module(tcs_patterns).
-export([set/6]).

%% set(Target, MS, Opts, Names, TracerModule, Collector) -> {Outcome, Names1}
%% Outcome: {ok, Value} | {placeholder, Text} | {raised, Class, Reason}.
set(Target, MS, Opts, Names, Mod, _Collector) ->
    Real = [case O of meta -> {meta, Mod, maps:get(meta, Names)}; _ -> O end || O <- Opts],
    Outcome = try {ok, erlang:trace_pattern(Target, MS, Real)}
              catch Class:Reason -> {raised, Class, Reason}
              end,
    {count(Target, Outcome), Names}.

count({'_', '_', '_'}, {ok, N}) when is_integer(N), N > 0 -> {placeholder, "_FunctionCount"};
count(_, Outcome) -> Outcome.

