/* fixturecode.c - unloading the fixture module tcs_late: its code, and with it the trace
 * patterns of its functions, is gone; its next call loads it afresh, and the on_load
 * patterns of that moment apply (CALL-PATTERN-ON-LOAD). */
#include "fixturecode.h"

#include "control.h"

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
