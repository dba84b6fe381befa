// SPDX-License-Identifier: MIT
// Attaches the invariant checkers to the RTL.  Listed only by the
// simulation build (hw/sim/sim.mk): hw/rtl knows nothing of them and
// synthesis never sees them.  Port connections are resolved in the scope
// of the bound module, so a checker may also read an internal register.
bind ppu_copy ppu_copy_chk #(.MAX_READS(MAX_READS)) u_chk (.*, .fault_q(r_done.fault));
bind ppu_sem ppu_sem_chk #(.NPORT(NPORT)) u_chk (.*);
bind ppu_mmu ppu_mmu_chk #(.NCLIENT(NCLIENT)) u_chk (.*);
bind ppu_host ppu_host_chk #(.NUM_CHANNELS(NUM_CHANNELS)) u_chk (.*);
bind ppu_inv_drain ppu_inv_drain_chk #(.NP(NP), .CW(CW), .COUNT(COUNT)) u_chk (.*);
