%% erlang/otp#10719 / #10877 (fix PR #10720, OTP 29.0-rc2): with -fvisibility=hidden the
%% runtime no longer exported the dynamic trace NIF functions (erl_nif_user_trace_s1, ...),
%% so runtime_tools' dyntrace library failed to load. Present: dyntrace cannot be loaded.
-module(pr10720).
-export([run/0]).

run() ->
    otp_bugs_lib:verdict(code:ensure_loaded(dyntrace) =:= {module, dyntrace}).
