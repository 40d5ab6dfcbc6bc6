# check_layers.cmake - the include rule of the reference model's layers, and the layer that
# opens windows.
#
#   cmake -DREF=<dir> -P check_layers.cmake
#
# REF/LAYERS lists the layers bottom first, one directory of REF each ("." is REF itself).
# Every .c and .h file of a layer may include (#include "x.h") only headers of its own layer
# or of a layer listed before it. Fails, naming the file, the include and both layers, on an
# include that goes up a layer, on a header no layer holds, on a header name two layers
# hold, and on a directory of REF that is in no layer.
#
# Windows are opened from one layer, races: an allowance window or an either-or states a race of
# the runtime, which the table of races/races.c names (rule, tags, limit, template, refusal). So
# only its files call the functions that write or capture them (allow_*, emit/allow.h) or include
# allow.h, which emit/allow.c defines. Fails, naming the file and the line, on any other that does.
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED REF)
  message(FATAL_ERROR "usage: cmake -DREF=<dir with a LAYERS file> -P check_layers.cmake")
endif()
get_filename_component(REF "${REF}" ABSOLUTE)
if(NOT EXISTS ${REF}/LAYERS)
  message(FATAL_ERROR "${REF}/LAYERS: no such file")
endif()

file(STRINGS ${REF}/LAYERS lines REGEX "^[a-z.]")
set(layers)
foreach(line ${lines})
  string(REGEX MATCH "^[a-z_.]+" dir "${line}")
  list(APPEND layers ${dir})
endforeach()
list(LENGTH layers nlayers)
if(nlayers EQUAL 0)
  message(FATAL_ERROR "${REF}/LAYERS lists no layer")
endif()

set(problems)
# The layer of each header name, and the files of each layer.
set(rank 0)
foreach(dir ${layers})
  math(EXPR rank "${rank} + 1")
  if(NOT IS_DIRECTORY ${REF}/${dir})
    list(APPEND problems "LAYERS names ${dir}, which is not a directory of ${REF}")
    continue()
  endif()
  file(GLOB headers ${REF}/${dir}/*.h)
  foreach(h ${headers})
    get_filename_component(name ${h} NAME)
    if(DEFINED header_rank_${name})
      list(APPEND problems "${name} is in two layers: ${header_layer_${name}} and ${dir}")
    endif()
    set(header_rank_${name} ${rank})
    set(header_layer_${name} ${dir})
  endforeach()
endforeach()

# A directory of REF that is in no layer holds code the rule does not reach.
file(GLOB entries LIST_DIRECTORIES true ${REF}/*)
foreach(entry ${entries})
  get_filename_component(name ${entry} NAME)
  if(IS_DIRECTORY ${entry} AND NOT name IN_LIST layers)
    list(APPEND problems "${name}/ is in no layer of LAYERS")
  endif()
endforeach()

set(nfiles 0)
set(nincludes 0)
set(nwindow_calls 0)
set(rank 0)
foreach(dir ${layers})
  math(EXPR rank "${rank} + 1")
  file(GLOB files ${REF}/${dir}/*.c ${REF}/${dir}/*.h)
  foreach(f ${files})
    math(EXPR nfiles "${nfiles} + 1")
    file(RELATIVE_PATH rel ${REF} ${f})
    file(STRINGS ${f} window_lines REGEX "allow_[a-z_]+[ \t]*\\(|#[ \t]*include[ \t]*\"allow\\.h\"")
    if(dir STREQUAL "races")
      list(LENGTH window_lines n)
      math(EXPR nwindow_calls "${nwindow_calls} + ${n}")
    elseif(NOT rel MATCHES "^emit/allow\\.[ch]$")
      foreach(line ${window_lines})
        string(STRIP "${line}" line)
        list(APPEND problems "${rel} opens a window outside races/ (through races/races.h): ${line}")
      endforeach()
    endif()
    file(STRINGS ${f} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(inc ${includes})
      math(EXPR nincludes "${nincludes} + 1")
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1" header "${inc}")
      if(NOT DEFINED header_rank_${header})
        list(APPEND problems "${rel} includes \"${header}\", which no layer of LAYERS holds")
      elseif(header_rank_${header} GREATER rank)
        list(APPEND problems
             "${rel} includes \"${header}\" of layer ${header_layer_${header}} (${header_rank_${header}}), above its own layer ${dir} (${rank})")
      endif()
    endforeach()
  endforeach()
endforeach()

if(problems)
  list(LENGTH problems n)
  string(REPLACE ";" "\n  " text "${problems}")
  message(FATAL_ERROR "${REF}: ${n} layer rule violation(s) (see LAYERS):\n  ${text}")
endif()
if("races" IN_LIST layers AND nwindow_calls EQUAL 0)
  message(FATAL_ERROR "${REF}/races opens no window (no allow_* line): the window rule finds nothing to check")
endif()
message(STATUS "${REF}: ${nfiles} files, ${nincludes} includes, ${nlayers} layers: every include goes down or across, every window is opened from races/ (${nwindow_calls} lines)")
