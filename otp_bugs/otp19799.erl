%% OTP-19799 (erlang/otp PR #10241; ERTS 16.1.1 = OTP 28.1.1): erlang:suspend_process/1 of a
%% process executing on a dirty scheduler failed to suspend it. The process here runs a dirty
%% I/O BIF for 1 s, then waits in a receive; the suspender calls suspend_process/1 meanwhile and
%% lives on until the status is read (its exit would lift its suspend: an earlier version let it
%% exit, and 29.1.2 then showed {status,waiting}, which is right, as "present").
%% Present: the call raises (internal_error on 25.2.3 and 27.3.4.1) or the process is not
%% suspended once its dirty work is over. The harness's puppets wait in a dirty NIF (C-491).
-module(otp19799).
-export([run/0]).

run() ->
    Self = self(),
    P = spawn(fun() -> erts_debug:dirty_io(wait, 1000), receive stop -> ok end end),
    timer:sleep(100),
    S = spawn(fun() -> Self ! {suspended, catch erlang:suspend_process(P)}, receive stop -> ok end end),
    Answer = receive {suspended, A} -> A after 3000 -> no_answer end,
    timer:sleep(1200), % the dirty work is over: a suspended process stays where it was
    Status = erlang:process_info(P, status),
    S ! stop,
    otp_bugs_lib:verdict(Answer =:= true andalso Status =:= {status, suspended}).
