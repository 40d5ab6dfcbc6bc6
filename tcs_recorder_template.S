{module, tcs_recorder_template}.  %% version = 0

{exports, [{enabled,3},
           {enabled_call,3},
           {enabled_garbage_collection,3},
           {enabled_ports,3},
           {enabled_procs,3},
           {enabled_receive,3},
           {enabled_running_ports,3},
           {enabled_running_procs,3},
           {enabled_send,3},
           {module_info,0},
           {module_info,1},
           {trace,5},
           {trace_call,5},
           {trace_garbage_collection,5},
           {trace_ports,5},
           {trace_procs,5},
           {trace_receive,5},
           {trace_running_ports,5},
           {trace_running_procs,5},
           {trace_send,5}]}.

{attributes, [{on_load,[{init,0}]}]}.

{labels, 44}.


{function, init, 0, 2}.
  {label,1}.
    {line,[{location,[],4}]}.
    {func_info,{atom,tcs_recorder_template},{atom,init},0}.
  {label,2}.
    {allocate,0,0}.
    {move,{literal,{tcs_recorder,tcs_recorder_template}},{x,0}}.
    {call_ext,1,{extfunc,persistent_term,get,1}}.
    {test,is_tuple,{f,3},[{x,0}]}.
    {test,test_arity,{f,3},[{x,0},2]}.
    {get_tuple_element,{x,0},0,{x,1}}.
    {get_tuple_element,{x,0},1,{x,0}}.
    {swap,{x,0},{x,1}}.
    {line,[{location,[],5}]}.
    {call_ext_last,2,{extfunc,erlang,load_nif,2},0}.
  {label,3}.
    {line,[{location,[],4}]}.
    {badmatch,{x,0}}.


{function, enabled, 3, 5}.
  {label,4}.
    {line,[{location,[],6}]}.
    {func_info,{atom,tcs_recorder_template},{atom,enabled},3}.
  {label,5}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, trace, 5, 7}.
  {label,6}.
    {line,[{location,[],7}]}.
    {func_info,{atom,tcs_recorder_template},{atom,trace},5}.
  {label,7}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, enabled_call, 3, 9}.
  {label,8}.
    {line,[{location,[],8}]}.
    {func_info,{atom,tcs_recorder_template},{atom,enabled_call},3}.
  {label,9}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, enabled_garbage_collection, 3, 11}.
  {label,10}.
    {line,[{location,[],9}]}.
    {func_info,{atom,tcs_recorder_template},
               {atom,enabled_garbage_collection},
               3}.
  {label,11}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, enabled_ports, 3, 13}.
  {label,12}.
    {line,[{location,[],10}]}.
    {func_info,{atom,tcs_recorder_template},{atom,enabled_ports},3}.
  {label,13}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, enabled_procs, 3, 15}.
  {label,14}.
    {line,[{location,[],11}]}.
    {func_info,{atom,tcs_recorder_template},{atom,enabled_procs},3}.
  {label,15}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, enabled_receive, 3, 17}.
  {label,16}.
    {line,[{location,[],12}]}.
    {func_info,{atom,tcs_recorder_template},{atom,enabled_receive},3}.
  {label,17}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, enabled_running_ports, 3, 19}.
  {label,18}.
    {line,[{location,[],13}]}.
    {func_info,{atom,tcs_recorder_template},{atom,enabled_running_ports},3}.
  {label,19}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, enabled_running_procs, 3, 21}.
  {label,20}.
    {line,[{location,[],14}]}.
    {func_info,{atom,tcs_recorder_template},{atom,enabled_running_procs},3}.
  {label,21}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, enabled_send, 3, 23}.
  {label,22}.
    {line,[{location,[],15}]}.
    {func_info,{atom,tcs_recorder_template},{atom,enabled_send},3}.
  {label,23}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, trace_call, 5, 25}.
  {label,24}.
    {line,[{location,[],16}]}.
    {func_info,{atom,tcs_recorder_template},{atom,trace_call},5}.
  {label,25}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, trace_garbage_collection, 5, 27}.
  {label,26}.
    {line,[{location,[],17}]}.
    {func_info,{atom,tcs_recorder_template},{atom,trace_garbage_collection},5}.
  {label,27}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, trace_ports, 5, 29}.
  {label,28}.
    {line,[{location,[],18}]}.
    {func_info,{atom,tcs_recorder_template},{atom,trace_ports},5}.
  {label,29}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, trace_procs, 5, 31}.
  {label,30}.
    {line,[{location,[],19}]}.
    {func_info,{atom,tcs_recorder_template},{atom,trace_procs},5}.
  {label,31}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, trace_receive, 5, 33}.
  {label,32}.
    {line,[{location,[],20}]}.
    {func_info,{atom,tcs_recorder_template},{atom,trace_receive},5}.
  {label,33}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, trace_running_ports, 5, 35}.
  {label,34}.
    {line,[{location,[],21}]}.
    {func_info,{atom,tcs_recorder_template},{atom,trace_running_ports},5}.
  {label,35}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, trace_running_procs, 5, 37}.
  {label,36}.
    {line,[{location,[],22}]}.
    {func_info,{atom,tcs_recorder_template},{atom,trace_running_procs},5}.
  {label,37}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, trace_send, 5, 39}.
  {label,38}.
    {line,[{location,[],23}]}.
    {func_info,{atom,tcs_recorder_template},{atom,trace_send},5}.
  {label,39}.
    {move,{atom,not_loaded},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,nif_error,1}}.


{function, module_info, 0, 41}.
  {label,40}.
    {line,[]}.
    {func_info,{atom,tcs_recorder_template},{atom,module_info},0}.
  {label,41}.
    {move,{atom,tcs_recorder_template},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,get_module_info,1}}.


{function, module_info, 1, 43}.
  {label,42}.
    {line,[]}.
    {func_info,{atom,tcs_recorder_template},{atom,module_info},1}.
  {label,43}.
    {move,{x,0},{x,1}}.
    {move,{atom,tcs_recorder_template},{x,0}}.
    {call_ext_only,2,{extfunc,erlang,get_module_info,2}}.
