%% erlang/otp#10719 / #10877 (fix PR #10720, OTP 29.0-rc2): with -fvisibility=hidden the
%% runtime no longer exported the dynamic trace NIF functions (erl_nif_user_trace_s1, ...),
%% so runtime_tools' dyntrace library failed to load. Present: dyntrace cannot be loaded.
-module(pr10720).
-export([run/0]).

run() ->
    Loaded = case code:ensure_loaded(dyntrace) of
                 {module, dyntrace} -> true;
                 _ -> false
             end,
    io:format("~s~n", [case Loaded of true -> "absent"; false -> "present" end]).
