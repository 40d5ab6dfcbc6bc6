%% The first ./tcs validate job: checks the user's input (the module name in
%% the beam, the --state term), loads the tracer and reports what the runtime
%% will see of it: the NIF functions of its library (the function table the
%% runtime picks callbacks from, spec CONFORMANCE FALLBACK-NIF-TABLE), the
%% module's exports, and whether erlang:trace/3 accepts it as a tracer.  The
%% driver judges the shape from these.
%%
%% Usage: erl -noshell -pa DIR -run tcs_validate_shape main JOB_FILE
-module(tcs_validate_shape).
-export([main/1]).

-import(tcs_validate_lib, [out/3, option/2, option/3]).

main([JobFile]) ->
    Job = tcs_validate_lib:read_job(JobFile),
    Module = option(module, Job),
    Beam = option(beam, Job),
    check_module_name(Module, Beam, option(beam_given_as, Job)),
    State = state(option(state, Job, default)),
    case tcs_validate_lib:load_tracer(Module, Beam) of
        {ok, How, Nifs} ->
            out("DATA", "loaded_by ~p", [How]),
            [out("DATA", "nif ~s ~b", [F, A]) || {F, A} <- Nifs],
            [out("DATA", "export ~s ~b", [F, A]) || {F, A} <- Module:module_info(exports),
                                                   F =/= module_info],
            out("DATA", "accepted ~p", [accepted(Module, State)]);
        {error, {on_load, Text}} -> out("NOLOAD", "on_load ~ts", [Text]);
        {error, {load_module, Why}} -> out("NOLOAD", "load_module ~0tp", [Why]);
        {error, {load_0_returned, Term}} -> out("NOLOAD", "load_0 ~0tp", [Term]);
        {error, no_nif_library} -> out("NOLOAD", "no_nif_library", [])
    end,
    tcs_validate_lib:done().

check_module_name(Module, Beam, GivenAs) ->
    case beam_lib:info(Beam) of
        {error, beam_lib, Why} ->
            bad_input("~ts: not a BEAM file (~0tp)", [GivenAs, Why]);
        Info ->
            case proplists:get_value(module, Info) of
                Module -> ok;
                Other -> bad_input("--module ~s, but ~ts holds module ~s", [Module, GivenAs, Other])
            end
    end.

state(Given) ->
    case tcs_validate_lib:parse_state(Given, self()) of
        {ok, State} -> State;
        {error, {Line, Col}, Message} -> bad_input("--state:~b:~b: ~ts", [Line, Col, Message])
    end.

bad_input(Fmt, Args) ->
    out("BADINPUT", Fmt, Args),
    tcs_validate_lib:done().

%% erlang:trace/3 refuses a module whose NIF library lacks enabled/3 or trace/5.
accepted(Module, State) ->
    tcs_validate_lib:step("probe", "-", "erlang:trace/3 with the tracer (it asks enabled(trace_status, ...))"),
    Tracee = spawn(fun() -> receive stop -> ok end end),
    Accepted = try erlang:trace(Tracee, true, [send, {tracer, Module, State}]) of
                   _ -> true
               catch error:badarg -> false
               end,
    Tracee ! stop,
    Accepted.
