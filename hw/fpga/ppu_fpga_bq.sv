// SPDX-License-Identifier: MIT
// Burst queue of one AXI master direction (reads or writes of one
// aperture).  The PPU issues single 8-byte beats; consecutive beats to
// consecutive addresses (a copy streams one per cycle) are gathered here
// into one INCR burst of up to MAX_BURST beats that never crosses a 4 KiB
// boundary.  A burst stays open while a beat extends it every cycle and
// closes in the first cycle without one, so an isolated access waits one
// cycle and a stream waits at most MAX_BURST cycles for its address phase.
//
// Each entry lives from the beat that opens it until its response is
// complete, in three stages tracked by pointers in queue order:
// open/closed -> address issued (AR/AW accepted) -> data done (W sent;
// for reads the R beats) -> done (B; for reads the same as data done).
// Every live entry is visible to the hazard query, which is how the shell
// keeps reads and writes of the same bytes in the order the PPU issued
// them (AXI orders neither against the other).
module ppu_fpga_bq #(
  parameter int unsigned NB = 16,          // bursts in flight; power of two
  parameter int unsigned MAX_BURST = 16,   // beats per burst, 1..256
  parameter int unsigned PA_W = 34
) (
  input  logic            clk,
  input  logic            rst_n,
  // a beat of the PPU's port, accepted when ready
  input  logic            beat_valid,
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [PA_W-1:0] beat_pa,         // beat-aligned: bits 2:0 are zero
  /* verilator lint_on UNUSEDSIGNAL */
  output logic            beat_ready,
  // address phase of the oldest closed burst not yet issued
  output logic            iss_valid,
  output logic [PA_W-4:0] iss_beat,        // first beat: pa >> 3
  output logic [7:0]      iss_len,         // AXI AxLEN: beats - 1
  input  logic            iss_take,
  // data phase of the oldest issued burst whose data is not done
  output logic            dat_valid,
  output logic [7:0]      dat_len,
  input  logic            dat_done,
  // completion of the oldest live burst
  output logic [7:0]      head_len,
  input  logic            head_done,
  // does a live burst cover the beat at hz_pa?
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [PA_W-1:0] hz_pa,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic            hz_hit,
  output logic            empty
);
  localparam int unsigned IW = $clog2(NB);
  localparam int unsigned BW = PA_W - 3;    // beat index bits
  localparam int unsigned PB = 9;           // beats per 4 KiB page, log2

  logic [BW-1:0] sb_m  [NB];                // first beat of each entry
  logic [7:0]    len_m [NB];
  logic [NB-1:0] live_q;
  logic [IW:0]   head_q, dat_q, iss_q, tail_q;
  logic          open_q;
  logic [BW-1:0] next_q;                    // the beat that would extend the open burst
  logic [IW-1:0] open_i;
  logic          extend, room, last_of_page;

  assign open_i = IW'(tail_q[IW-1:0] - 1'b1);
  assign extend = open_q && beat_pa[PA_W-1:3] == next_q &&
                  32'(len_m[open_i]) + 1 < MAX_BURST;
  assign room   = head_q != {~tail_q[IW], tail_q[IW-1:0]};
  assign beat_ready = room || extend;
  // The beat just taken ends its page: nothing may extend the burst.
  assign last_of_page = &beat_pa[PB+2:3];

  assign iss_valid = iss_q != tail_q && !(open_q && iss_q[IW-1:0] == open_i);
  assign iss_beat  = sb_m[iss_q[IW-1:0]];
  assign iss_len   = len_m[iss_q[IW-1:0]];
  assign dat_valid = dat_q != iss_q;
  assign dat_len   = len_m[dat_q[IW-1:0]];
  assign head_len  = len_m[head_q[IW-1:0]];
  assign empty     = head_q == tail_q;

  always_comb begin
    hz_hit = 1'b0;
    for (int unsigned i = 0; i < NB; i++) begin
      if (live_q[i] && sb_m[i][BW-1:PB] == hz_pa[PA_W-1:PB+3] &&
          hz_pa[PB+2:3] >= sb_m[i][PB-1:0] &&
          10'(hz_pa[PB+2:3]) <= 10'(sb_m[i][PB-1:0]) + 10'(len_m[i]))
        hz_hit = 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    if (beat_valid && beat_ready) begin
      if (extend) begin
        len_m[open_i] <= len_m[open_i] + 1'b1;
      end else begin
        sb_m[tail_q[IW-1:0]]  <= beat_pa[PA_W-1:3];
        len_m[tail_q[IW-1:0]] <= '0;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      live_q <= '0;
      head_q <= '0;
      dat_q  <= '0;
      iss_q  <= '0;
      tail_q <= '0;
      open_q <= 1'b0;
      next_q <= '0;
    end else begin
      if (beat_valid && beat_ready) begin
        next_q <= beat_pa[PA_W-1:3] + 1'b1;
        if (extend) begin
          open_q <= !last_of_page && 32'(len_m[open_i]) + 2 < MAX_BURST;
        end else begin
          live_q[tail_q[IW-1:0]] <= 1'b1;
          tail_q <= tail_q + 1'b1;
          open_q <= !last_of_page && MAX_BURST > 1;
        end
      end else begin
        open_q <= 1'b0;
      end
      if (iss_take) iss_q <= iss_q + 1'b1;
      if (dat_done) dat_q <= dat_q + 1'b1;
      if (head_done) begin
        head_q <= head_q + 1'b1;
        live_q[head_q[IW-1:0]] <= 1'b0;
      end
    end
  end
endmodule
