# check_races.cmake - the rule of the runtime's races: windows are opened from one directory.
#
#   cmake -DREF=<dir> -P check_races.cmake
#
# An allowance window or an either-or is the model's statement of a race of the runtime, which
# ref/races/races.c's table names (rule, tags, limit, template, refusal). So only the files of
# REF/races call the primitives that write them, or capture lines for them (allow_*, ref/emit/allow.h),
# and only they include allow.h; allow.c itself defines them. Fails, naming the file and the line,
# on a file elsewhere that does either.
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED REF)
  message(FATAL_ERROR "usage: cmake -DREF=<the model's directory> -P check_races.cmake")
endif()
get_filename_component(REF "${REF}" ABSOLUTE)
if(NOT IS_DIRECTORY ${REF}/races)
  message(FATAL_ERROR "${REF}/races: no such directory")
endif()

set(problems)
set(ncalls 0)
file(GLOB_RECURSE files ${REF}/*.c ${REF}/*.h)
foreach(f ${files})
  file(RELATIVE_PATH rel ${REF} ${f})
  if(rel MATCHES "^races/" OR rel MATCHES "^emit/allow\\.[ch]$")
    if(rel MATCHES "^races/")
      file(STRINGS ${f} calls REGEX "allow_[a-z_]+[ \t]*\\(")
      list(LENGTH calls n)
      math(EXPR ncalls "${ncalls} + ${n}")
    endif()
    continue()
  endif()
  file(STRINGS ${f} lines REGEX "allow_[a-z_]+[ \t]*\\(|#[ \t]*include[ \t]*\"allow\\.h\"")
  foreach(line ${lines})
    string(STRIP "${line}" line)
    list(APPEND problems "${rel}: ${line}")
  endforeach()
endforeach()

if(problems)
  list(LENGTH problems n)
  string(REPLACE ";" "\n  " text "${problems}")
  message(FATAL_ERROR "${REF}: ${n} window opened outside races/ (open it through ref/races/races.h):\n  ${text}")
endif()
if(ncalls EQUAL 0)
  message(FATAL_ERROR "${REF}/races calls no allow_* function: the check finds nothing to check")
endif()
message(STATUS "${REF}: every window and either-or is opened from races/ (${ncalls} lines there)")
