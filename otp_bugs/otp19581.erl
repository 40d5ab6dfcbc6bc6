%% OTP-19581 (erlang/otp PR #9706, ERTS 15.2.6, an OTP 27.3 patch; "since OTP 27.1"): a function
%% traced for call_memory reported wildly wrong memory, even negative, when the traced process
%% had garbage collection delayed with a need of heap (a BIF that yields while delaying GC, such
%% as binary_to_list/1, in the PR's words). As the fix's test case (trace_call_memory_SUITE
%% delayed_gc/1): GC disabled with erts_debug:set_internal_state(gc_state, false), a term of
%% Words words built in the traced function so that the heap fills up, GC enabled again; the
%% function's call_memory must be {Self, 1, Words}, for Words one to ten heap sizes. Also, the
%% PR's own trigger: binary_to_list/1 of a 1 MB binary in a traced function, whose call_memory
%% must be twice the list's length (printed, not the verdict). OTP 25 has no call_memory (OTP 26).
-module(otp19581).
-export([run/0, build_on_heap/1, to_list/1]).

run() ->
    case catch erlang:trace_pattern({?MODULE, build_on_heap, 1}, true, [call_memory]) of
        1 -> check();
        _ -> io:format("not_applicable: no call_memory before OTP 26~n")
    end.

check() ->
    Self = self(),
    Traced = {?MODULE, build_on_heap, 1},
    1 = erlang:trace(Self, true, [call]),
    AIS = erts_debug:set_internal_state(available_internal_state, true),
    {heap_size, HeapSize} = process_info(Self, heap_size),
    Seen = [begin
                true = erts_debug:set_internal_state(gc_state, false),
                Term = ?MODULE:build_on_heap(Words),
                false = erts_debug:set_internal_state(gc_state, true),
                Words = erts_debug:flat_size(Term),
                {call_memory, Got} = erlang:trace_info(Traced, call_memory),
                1 = erlang:trace_pattern(Traced, restart, [call_memory]),
                {Words, Got}
            end || Words <- lists:seq(HeapSize, 10 * HeapSize, HeapSize)],
    erts_debug:set_internal_state(available_internal_state, AIS),
    Wrong = [{Words, Got} || {Words, Got} <- Seen, Got =/= [{Self, 1, Words}]],
    io:format("delayed gc, words and call_memory were wrong: ~p~n", [Wrong]),
    io:format("binary_to_list/1 of 1 MB: list words ~p, call_memory ~p~n", [2 * 1048576, to_list_memory()]),
    otp_bugs_lib:verdict(Wrong =:= []).

to_list_memory() ->
    Traced = {?MODULE, to_list, 1},
    1 = erlang:trace_pattern(Traced, true, [call_memory]),
    _ = ?MODULE:to_list(binary:copy(<<1>>, 1048576)),
    {call_memory, Got} = erlang:trace_info(Traced, call_memory),
    Got.

build_on_heap(Words) ->
    build_on_heap(Words, []).

build_on_heap(0, Acc) -> Acc;
build_on_heap(3, Acc) -> {3, Acc};
build_on_heap(Words, Acc) when Words > 1 -> build_on_heap(Words - 2, [Words | Acc]).

to_list(Bin) ->
    binary_to_list(Bin).
