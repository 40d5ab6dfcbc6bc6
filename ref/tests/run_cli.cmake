# The tcsref command line beyond the corpus: usage forms, unreadable files, plan of a case the
# model cannot run, JSON escaping in meta, and golden's error paths (bad cases, missing
# directory, orphans under --check, stale files rewritten, files that are not cases).
set(W ${WORK})
file(REMOVE_RECURSE ${W})
file(MAKE_DIRECTORY ${W}/cases ${W}/golden)

# run(RC OUT ERR args...): runs tcsref and requires exit status RC
macro(run want_rc)
  execute_process(COMMAND ${TCSREF} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL ${want_rc})
    message(FATAL_ERROR "tcsref ${ARGN}: exit status ${rc}, want ${want_rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
endmacro()
function(want var text) # a function: text is compared as a value, never re-parsed
  if(NOT "${${var}}" STREQUAL "${text}")
    message(FATAL_ERROR "${var} is\n[${${var}}]\nwant\n[${text}]")
  endif()
endfunction()

# usage
run(0 -h)
string(FIND "${out}" "usage: tcsref sim FILE [--explain]" at)
if(at EQUAL -1)
  message(FATAL_ERROR "-h printed no usage: ${out}")
endif()
run(0 sim x --help)
run(2 sim x y)
want(out "")
string(FIND "${err}" "usage: tcsref sim" at)
if(at EQUAL -1)
  message(FATAL_ERROR "no usage on stderr: ${err}")
endif()
run(2 sim)
run(2 plan a b)
run(2 golden a b --force)
run(2 golden a)
run(2 sim a b c)
run(2 sim a --explain c)
run(2 golden a b --check x)

# a file that cannot be read: FILE: message, no line and column
run(2 sim ${W}/no_such_case.tcs)
want(err "${W}/no_such_case.tcs: cannot read file\n")
run(2 meta ${W}/no_such_case.tcs)
want(err "${W}/no_such_case.tcs: cannot read file\n")

# plan is only given for a case the model can run
run(2 plan ${DEAD_ACTOR})
want(out "")
want(err "${DEAD_ACTOR}:9:1: a step by a dead process is not supported by model v1\n")

# meta: JSON escapes of ", \ and control characters in desc
file(WRITE ${W}/cases/meta_esc.tcs "case meta_esc\nrules EV-SEND\ndesc \"q\\\"b\\\\s\tt\"\notp 26\nfeatures f1\ntracer recorder\ncallbacks trace_send\nprocess a\n")
run(0 meta ${W}/cases/meta_esc.tcs)
want(out [=[{"id":"meta_esc","rules":["EV-SEND"],"desc":"q\"b\\s\u0009t","otp":26,"features":["f1"],"tries":1,"tracer":"recorder","callbacks":["trace_send"],"sessions":[]}
]=])

# golden: files that are not cases are ignored; created, then updated when stale
file(WRITE ${W}/cases/notes.txt "not a case\n")
file(WRITE ${W}/cases/.hidden.tcs "bogus\n")
file(WRITE ${W}/golden/meta_esc.stream "old\n")
file(WRITE ${W}/golden/keep.txt "not a stream\n")
run(0 golden ${W}/cases ${W}/golden)
want(out "updated ${W}/golden/meta_esc.stream\n")
file(READ ${W}/golden/meta_esc.stream s)
want(s "% tcs stream v1: meta_esc\n")
run(0 golden ${W}/cases ${W}/golden --check)
want(out "")

# golden --check reports an orphan and exits 1 without removing it
file(WRITE ${W}/golden/gone.stream "x\n")
file(WRITE ${W}/golden/meta_esc_2.stream "x\n")
run(1 golden ${W}/cases ${W}/golden --check)
want(out "orphan: ${W}/golden/gone.stream\norphan: ${W}/golden/meta_esc_2.stream\n")
if(NOT EXISTS ${W}/golden/gone.stream)
  message(FATAL_ERROR "--check removed an orphan")
endif()

# a stale file of the right length is still stale; without --check it is rewritten and
# orphans are removed
file(WRITE ${W}/golden/meta_esc.stream "% tcs stream v1: meta_esX\n")
run(1 golden ${W}/cases ${W}/golden --check)
want(out "stale: ${W}/golden/meta_esc.stream\norphan: ${W}/golden/gone.stream\norphan: ${W}/golden/meta_esc_2.stream\n")
run(0 golden ${W}/cases ${W}/golden)
want(out "updated ${W}/golden/meta_esc.stream\nremoved orphan ${W}/golden/gone.stream (no case)\nremoved orphan ${W}/golden/meta_esc_2.stream (no case)\n")

# an orphan that cannot be removed (a non-empty directory)
file(WRITE ${W}/golden/stuck.stream/inside "x\n")
run(2 golden ${W}/cases ${W}/golden)
want(out "")
want(err "tcsref: cannot remove ${W}/golden/stuck.stream\n")
file(REMOVE_RECURSE ${W}/golden/stuck.stream)

# a stream that cannot be written: the golden directory is a regular file
file(WRITE ${W}/golden_file "x\n")
run(2 golden ${W}/cases ${W}/golden_file)
want(out "")
string(FIND "${err}" "tcsref: cannot write ${W}/golden_file/meta_esc.stream: " at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "no write error: ${err}")
endif()

# an empty cases directory: nothing to do, nothing printed
file(MAKE_DIRECTORY ${W}/empty_cases ${W}/empty_golden)
run(0 golden ${W}/empty_cases ${W}/empty_golden)
want(out "")
run(0 golden ${W}/empty_cases ${W}/empty_golden --check)

# many cases (more than the first block of names): all created, in sorted order
file(MAKE_DIRECTORY ${W}/many)
set(expect "")
foreach(i RANGE 100 169)
  file(WRITE ${W}/many/c${i}.tcs "case c${i}\nrules A\ndesc \"d\"\notp 1\ntracer recorder\nprocess a\n")
  string(APPEND expect "created ${W}/many_golden/c${i}.stream\n")
endforeach()
run(0 golden ${W}/many ${W}/many_golden)
want(out "${expect}")
run(0 golden ${W}/many ${W}/many_golden --check)

# a tree of cases: every sub-directory is read (a hidden one not), the streams stay flat, in the
# order of the file names; two files of one name are two cases with one id, refused
set(tiny "rules A\ndesc \"d\"\notp 1\ntracer recorder\nprocess a\n")
file(WRITE ${W}/tree/b_area/t1.tcs "case t1\n${tiny}")
file(WRITE ${W}/tree/a_area/deep/t2.tcs "case t2\n${tiny}")
file(WRITE ${W}/tree/.hidden/t3.tcs "bogus\n")
run(0 golden ${W}/tree ${W}/tree_golden)
want(out "created ${W}/tree_golden/t1.stream\ncreated ${W}/tree_golden/t2.stream\n")
file(WRITE ${W}/tree/a_area/t1.tcs "case t1\n${tiny}")
run(2 golden ${W}/tree ${W}/tree_golden)
want(out "")
want(err "tcsref: ${W}/tree/a_area/t1.tcs and ${W}/tree/b_area/t1.tcs: two cases with one id (a case id is unique across the tree)\n")

# golden with a bad case reports every error and writes nothing
file(WRITE ${W}/cases/zz_bad.tcs "case zz_bad\nrules A\n")
file(WRITE ${W}/cases/other.tcs "case wrong\n")
file(REMOVE ${W}/golden/meta_esc.stream)
file(WRITE ${W}/golden/gone.stream "x\n")
run(2 golden ${W}/cases ${W}/golden)
want(out "")
want(err "${W}/cases/other.tcs:2:1: missing 'rules' statement\n${W}/cases/zz_bad.tcs:3:1: missing 'desc' statement\ntcsref: 2 case(s) with errors; nothing written\n")
if(EXISTS ${W}/golden/meta_esc.stream OR NOT EXISTS ${W}/golden/gone.stream)
  message(FATAL_ERROR "golden wrote or removed files despite errors")
endif()

# a cases directory that does not exist
run(2 golden ${W}/no_such_dir ${W}/golden)
want(err "tcsref: cannot open directory ${W}/no_such_dir\n")
