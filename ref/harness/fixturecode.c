/* fixturecode.c - the fixture module tcs_late's code changed by the harness between steps:
 * unloaded (its code, and with it the trace patterns of its functions, is gone; its next call
 * loads it afresh, and the on_load patterns of that moment apply: CALL-PATTERN-ON-LOAD), or a
 * new version loaded over it (the current version becomes old, untraced, and the new one gets
 * the on_load patterns: CALL-RELOAD-NEW-INSTANCE), refused while old code is left
 * (CALL-RELOAD-NOT-PURGED). */
#include "fixturecode.h"

#include "control.h"
#include "release.h"

bool fixturecode_unload(Model *m, const Step *st)
{
    FixtureModule mod = (FixtureModule)fixture_module(st->module);
    /* code:delete/1 of a module the node never loaded answers false, and true for one it
     * has loaded and deleted since (seen live on 25, 27, 29: C-140); a shared node may have
     * loaded tcs_late for an earlier case, so before the case loads it the answer is open */
    if (!m->loaded_once[mod])
        return model_unsupported(m, st->line, st->col, "unloading tcs_late before a call of the case has loaded it is");
    /* code:purge/1, code:delete/1, code:purge/1 from the harness */
    control_line(m, "code:delete(tcs_late)", "-> true", "CALL-PATTERN-MODULE-DELETED");
    model_unload_module(m, mod);
    return true;
}

bool fixturecode_load(Model *m, const Step *st)
{
    FixtureModule mod = (FixtureModule)fixture_module(st->module);
    /* beam_bif_load.c, finish_loading_1: not_purged when the module has both current and old
     * code, checked before anything changes; the current version keeps its patterns. OTP 25
     * cleared the current version's breakpoints first (OTP-18979, C-480). The answer does not
     * depend on the node's past: a case starts with tcs_late neither loaded nor old (the
     * runner purges, deletes and purges it after each case) */
    if (m->old_code[mod]) {
        control_line(m, "code:load_file(tcs_late)", "-> {error,not_purged}", "CALL-RELOAD-NOT-PURGED");
        if (model_module_patterned(m, mod) && release_deviates(m, DEV_NOT_PURGED_CLEARS_PATTERNS))
            model_clear_module_patterns(m, mod);
        return true;
    }
    /* a loaded module's version becomes old, its breakpoints cleared first (erts_clear_module_break
     * before erts_finish_loading), so old and new are untraced; the new one gets the on_load
     * patterns as a module loaded the first time */
    bool reloaded = m->loaded[mod];
    control_line(m, "code:load_file(tcs_late)", "-> {module,tcs_late}",
                 reloaded ? "CALL-RELOAD-NEW-INSTANCE CALL-PATTERN-ON-LOAD" : "CALL-PATTERN-ON-LOAD");
    model_clear_module_patterns(m, mod);
    model_load_module(m, mod);
    m->old_code[mod] = reloaded;
    return true;
}
