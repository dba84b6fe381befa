// SPDX-License-Identifier: MIT
// Simulation-only invariant checkers (hw/chk/README.md): the report
// channel to the harness.  A checker that sees a contract broken calls
// ppu_chk_fail; the harness counts it (ppu_sim_check_errors) and the
// tests fail on any count, so a broken contract is never just a message.
package ppu_chk_pkg;
  import "DPI-C" function void ppu_chk_fail(input string who, input string what);
  // Self-test mask set by the harness (ppu_sim_set_check_selftest): each
  // bit makes one checker hold the RTL to a deliberately wrong rule, so a
  // test can prove the checker runs and its report fails the test.
  import "DPI-C" function int ppu_chk_selftest();

  localparam int unsigned SELFTEST_COPY = 1;
  localparam int unsigned SELFTEST_SEM  = 2;
  localparam int unsigned SELFTEST_MMU  = 4;
  localparam int unsigned SELFTEST_HOST = 8;
  // hw/fpga/chk: the FPGA shell's AXI checkers (unused where only the
  // PPU's own checkers are bound)
  /* verilator lint_off UNUSEDPARAM */
  localparam int unsigned SELFTEST_AXI  = 16;
  /* verilator lint_on UNUSEDPARAM */
endpackage
