// SPDX-License-Identifier: MIT
/*
 * ppu_mem_arb on its own (module defaults: NRD = 4 read clients, NWR = 3
 * write clients).  Clients raise requests at random and hold them until
 * ready; the external port stalls at random and answers in order after a
 * random latency, tagged with the client index.  Every cycle the testbench
 * checks the arbiter's port contract (docs/hw-internals.md): one grant at a
 * time, the external payload is the granted client's, held while stalled,
 * and each response goes to the client the tag names, in that client's
 * request order, with its data and error bit.
 *
 * RMW lock (LOCK_WR_CLIENT = 1, the module default): every cycle with the
 * lock up, a write of another client to the locked beat reaches the port
 * only if it was already presented and stalled before (the held grant, never
 * withdrawn), and lock_clear is 0 exactly when such a write is at the port.
 */
#include "Vppu_mem_arb.h"
#include "tb_common.h"

#include <algorithm>
#include <vector>

namespace {

const unsigned NRD = 4, NWR = 3; // module defaults
const unsigned LOCK = 1;          // LOCK_WR_CLIENT default

// The beat of a paddr_t value {sys, addr}: every bit but the byte offset.
uint64_t beat_of(uint64_t pa) { return pa >> 3; }

uint64_t data_of(uint64_t pa) { return pa * 0x9e3779b97f4a7c15ull ^ 0x1234; }
bool err_of(uint64_t pa) { return ((pa >> 3) % 13) == 5; }

struct Client {
	unsigned pct = 0;        // chance of a new request in a cycle without one
	bool valid = false;
	uint64_t pa = 0;         // paddr_t value {sys, addr}
	uint64_t data = 0;       // write clients
	unsigned strb = 0;
	std::deque<uint64_t> exp; // PAs of requests awaiting a response
	uint64_t issued = 0, answered = 0;
	unsigned skipped = 0;    // handshakes of others while this one waited
	uint64_t target = 0;     // new requests go here with target_pct chance
	unsigned target_pct = 0;
};

struct Rsp {
	unsigned tag;
	uint64_t pa;
};

class ArbEnv {
public:
	Dut<Vppu_mem_arb> d;
	Rng rng{3};
	Client rc[NRD], wc[NWR];
	unsigned rd_ready_pct = 100, wr_ready_pct = 100, lat_max = 1;
	uint64_t rd_fires = 0, wr_fires = 0;
	unsigned max_rd_skip = 0, max_wr_skip = 0;
	std::vector<unsigned> rd_order, wr_order; // granted client per handshake
	// Forced port ready for directed tests (-1: random by *_ready_pct).
	int force_rd_ready = -1, force_wr_ready = -1;
	// RMW lock input, and what the lock did
	bool lock = false;
	uint64_t lock_pa = 0;
	uint64_t locked_fires = 0;   // writes of others to the locked beat accepted under the lock
	uint64_t owner_locked_fires = 0;
	uint64_t other_beat_fires_locked = 0, rd_fires_locked = 0;
	std::vector<unsigned> lock_clear_log; // lock_clear per cycle while logging
	bool log_lock_clear = false;

	ArbEnv()
	{
		d->rd_valid = 0;
		d->wr_valid = 0;
		clear(d->rd_pa);
		clear(d->wr_req);
		d->lock_valid = 0;
		d->lock_pa = 0;
		d->m_rd_ready = 0;
		d->m_rd_rsp_valid = 0;
		clear(d->m_rd_rsp);
		d->m_rd_rsp_tag = 0;
		d->m_wr_ready = 0;
		d->m_wr_rsp_valid = 0;
		d->m_wr_rsp_err = 0;
		d->m_wr_rsp_tag = 0;
		d.reset();
		TB_CTX("mem_arb");
	}

	uint64_t random_pa()
	{
		uint64_t addr = (rng.u64() & mask64(tp::PA_W)) & ~uint64_t(tp::BEAT - 1);
		return addr | uint64_t(rng.below(2)) << tp::paddr::sys.lsb;
	}

	void reset_stats()
	{
		rd_fires = wr_fires = 0;
		max_rd_skip = max_wr_skip = 0;
		rd_order.clear();
		wr_order.clear();
	}

	void cycle()
	{
		// Clients decide valid and payload without looking at ready; idle
		// clients show garbage payloads.
		unsigned rv = 0, wv = 0;
		for (unsigned i = 0; i < NRD; i++) {
			Client &c = rc[i];
			if (!c.valid && c.pct && rng.pct(c.pct)) {
				c.valid = true;
				c.pa = c.target_pct && rng.pct(c.target_pct) ? c.target : random_pa();
			}
			rv |= unsigned(c.valid) << i;
			set(d->rd_pa, elem(first(tp::paddr::W), tp::paddr::W, i), c.valid ? c.pa : rng.u64());
		}
		for (unsigned i = 0; i < NWR; i++) {
			Client &c = wc[i];
			if (!c.valid && c.pct && rng.pct(c.pct)) {
				c.valid = true;
				c.pa = c.target_pct && rng.pct(c.target_pct) ? c.target : random_pa();
				c.data = rng.u64();
				c.strb = rng.below(256);
			}
			wv |= unsigned(c.valid) << i;
			uint64_t g = rng.u64();
			set(d->wr_req, elem(tp::wreq::addr, tp::wreq::W, i), c.valid ? c.pa : g);
			set(d->wr_req, elem(tp::wreq::sys, tp::wreq::W, i),
			    c.valid ? c.pa >> tp::paddr::sys.lsb : g >> 63);
			set(d->wr_req, elem(tp::wreq::data, tp::wreq::W, i), c.valid ? c.data : ~g);
			set(d->wr_req, elem(tp::wreq::strb, tp::wreq::W, i), c.valid ? c.strb : g >> 7);
		}
		d->rd_valid = rv;
		d->wr_valid = wv;
		d->lock_valid = lock;
		// the lock names a beat: random byte offset, which must not matter
		d->lock_pa = lock ? lock_pa | rng.below(8) : rng.u64() & mask64(tp::paddr::W);
		d->m_rd_ready = force_rd_ready >= 0 ? force_rd_ready : rng.pct(rd_ready_pct);
		d->m_wr_ready = force_wr_ready >= 0 ? force_wr_ready : rng.pct(wr_ready_pct);

		// External port responses; garbage tag and data when not valid.
		bool rrsp = rpend_.due(d.cyc);
		d->m_rd_rsp_valid = rrsp;
		if (rrsp) {
			const Rsp &r = rpend_.front();
			d->m_rd_rsp_tag = r.tag;
			set(d->m_rd_rsp, tp::rdrsp::data, data_of(r.pa));
			set(d->m_rd_rsp, tp::rdrsp::err, err_of(r.pa));
		} else {
			d->m_rd_rsp_tag = rng.below(8);
			randomize(d->m_rd_rsp, rng.u64());
		}
		bool wrsp = wpend_.due(d.cyc);
		d->m_wr_rsp_valid = wrsp;
		if (wrsp) {
			d->m_wr_rsp_tag = wpend_.front().tag;
			d->m_wr_rsp_err = err_of(wpend_.front().pa);
		} else {
			d->m_wr_rsp_tag = rng.below(8);
			d->m_wr_rsp_err = rng.below(2);
		}
		d.eval();

		bool rfire = d->m_rd_valid && d->m_rd_ready;
		check_reads(rv, rrsp);
		check_writes(wv, wrsp);
		if (lock && rfire)
			rd_fires_locked++;
		d.tick();
	}

	void run(unsigned cycles)
	{
		for (unsigned i = 0; i < cycles; i++)
			cycle();
	}

	// Stop new requests, let everything finish, check nothing is left.
	void drain()
	{
		for (Client &c : rc)
			c.pct = 0;
		for (Client &c : wc)
			c.pct = 0;
		rd_ready_pct = wr_ready_pct = 100;
		force_rd_ready = force_wr_ready = -1;
		lock = false;
		run(100);
		for (unsigned i = 0; i < NRD; i++) {
			TB_CTX("drain, read client %u", i);
			TB_TRUE(!rc[i].valid);
			TB_TRUE(rc[i].exp.empty());
			TB_EQ(rc[i].answered, rc[i].issued);
		}
		for (unsigned i = 0; i < NWR; i++) {
			TB_CTX("drain, write client %u", i);
			TB_TRUE(!wc[i].valid);
			TB_TRUE(wc[i].exp.empty());
			TB_EQ(wc[i].answered, wc[i].issued);
		}
		TB_CTX("mem_arb");
	}

private:
	Pipe<Rsp> rpend_, wpend_;
	HoldCheck<uint64_t> rd_hold_;
	HoldCheck<VlWide<4>> wr_hold_;
	HoldCheck<uint64_t> rd_tag_hold_, wr_tag_hold_;

	static void skip_account(Client *cl, unsigned n, unsigned valid, unsigned granted, unsigned *max)
	{
		for (unsigned i = 0; i < n; i++) {
			if (i == granted || !(valid >> i & 1))
				cl[i].skipped = 0;
			else if (++cl[i].skipped > *max)
				*max = cl[i].skipped;
		}
	}

	void check_reads(unsigned rv, bool rrsp)
	{
		TB_EQ(d->m_rd_valid, rv != 0);
		unsigned rr = d->rd_ready;
		bool fire = d->m_rd_valid && d->m_rd_ready;
		TB_EQ(rr & ~rv, 0);
		TB_EQ(rr, fire ? 1u << d->m_rd_tag : 0u);
		rd_hold_.sample("m_rd", d->m_rd_valid, d->m_rd_ready, d->m_rd_pa);
		rd_tag_hold_.sample("m_rd tag", d->m_rd_valid, d->m_rd_ready, uint64_t(d->m_rd_tag));
		if (d->m_rd_valid) {
			unsigned t = d->m_rd_tag;
			TB_TRUE(t < NRD && (rv >> t & 1));
			TB_EQ(d->m_rd_pa, rc[t].pa);
		}
		unsigned rsv = d->rd_rsp_valid;
		if (rrsp) {
			Rsp r = rpend_.pop();
			TB_EQ(rsv, 1u << r.tag);
			TB_TRUE(!rc[r.tag].exp.empty());
			TB_EQ(rc[r.tag].exp.front(), r.pa);
			TB_EQ(get(d->rd_rsp, tp::rdrsp::data), data_of(r.pa));
			TB_EQ(get(d->rd_rsp, tp::rdrsp::err), err_of(r.pa));
			rc[r.tag].exp.pop_front();
			rc[r.tag].answered++;
		} else {
			TB_EQ(rsv, 0);
		}
		if (fire) {
			unsigned t = d->m_rd_tag;
			rpend_.push(d.cyc, 1 + rng.below(lat_max), Rsp{t, rc[t].pa});
			rc[t].exp.push_back(rc[t].pa);
			rc[t].valid = false;
			rc[t].issued++;
			rd_fires++;
			rd_order.push_back(t);
			skip_account(rc, NRD, rv, t, &max_rd_skip);
		}
	}

	void check_writes(unsigned wv, bool wrsp)
	{
		// Clients the lock may hold back: another client's write to the
		// locked beat that was not stalled at the port last cycle.
		bool was_stalled = wr_hold_.stalled;
		unsigned blockable = 0;
		if (lock)
			for (unsigned i = 0; i < NWR; i++)
				if (i != LOCK && (wv >> i & 1) && beat_of(wc[i].pa) == beat_of(lock_pa))
					blockable |= 1u << i;
		unsigned elig = wv;
		for (unsigned i = 0; i < NWR; i++)
			if ((blockable >> i & 1) && !(was_stalled && wr_tag_hold_.last == i))
				elig &= ~(1u << i);
		TB_EQ(d->m_wr_valid, elig != 0);
		unsigned wr = d->wr_ready;
		bool fire = d->m_wr_valid && d->m_wr_ready;
		TB_EQ(wr & ~wv, 0);
		TB_EQ(wr, fire ? 1u << d->m_wr_tag : 0u);
		wr_hold_.sample("m_wr", d->m_wr_valid, d->m_wr_ready, d->m_wr_req);
		wr_tag_hold_.sample("m_wr tag", d->m_wr_valid, d->m_wr_ready, uint64_t(d->m_wr_tag));
		bool other_at_beat = false;
		if (d->m_wr_valid) {
			unsigned t = d->m_wr_tag;
			TB_TRUE(t < NWR && (elig >> t & 1));
			uint64_t pa = get(d->m_wr_req, tp::wreq::addr) |
				      get(d->m_wr_req, tp::wreq::sys) << tp::paddr::sys.lsb;
			TB_EQ(pa, wc[t].pa);
			TB_EQ(get(d->m_wr_req, tp::wreq::data), wc[t].data);
			TB_EQ(get(d->m_wr_req, tp::wreq::strb), wc[t].strb);
			other_at_beat = t != LOCK && beat_of(pa) == beat_of(d->lock_pa);
			if (lock && other_at_beat) {
				// only a write stalled at the port before this cycle
				TB_TRUE(was_stalled);
				if (fire)
					locked_fires++;
			}
			if (lock && fire && t == LOCK && beat_of(pa) == beat_of(lock_pa))
				owner_locked_fires++;
			if (lock && fire && beat_of(pa) != beat_of(lock_pa))
				other_beat_fires_locked++;
		}
		TB_EQ(d->lock_clear, !other_at_beat);
		if (log_lock_clear)
			lock_clear_log.push_back(d->lock_clear);
		unsigned wsv = d->wr_rsp_valid;
		if (wrsp) {
			Rsp r = wpend_.pop();
			TB_EQ(wsv, 1u << r.tag);
			TB_TRUE(!wc[r.tag].exp.empty());
			TB_EQ(wc[r.tag].exp.front(), r.pa);
			TB_EQ(d->wr_rsp_err, err_of(r.pa));
			wc[r.tag].exp.pop_front();
			wc[r.tag].answered++;
		} else {
			TB_EQ(wsv, 0);
		}
		if (fire) {
			unsigned t = d->m_wr_tag;
			wpend_.push(d.cyc, 1 + rng.below(lat_max), Rsp{t, wc[t].pa});
			wc[t].exp.push_back(wc[t].pa);
			wc[t].valid = false;
			wc[t].issued++;
			wr_fires++;
			wr_order.push_back(t);
			skip_account(wc, NWR, wv, t, &max_wr_skip);
		}
	}
};

} // namespace

START_TEST(lone_client_streams_one_read_and_one_write_per_cycle)
{
	ArbEnv e;
	for (unsigned c = 0; c < NRD; c++) {
		e.drain();
		e.reset_stats();
		for (unsigned i = 0; i < NRD; i++)
			e.rc[i].pct = i == c ? 100 : 0;
		for (unsigned i = 0; i < NWR; i++)
			e.wc[i].pct = i == c % NWR ? 100 : 0;
		e.lat_max = 4;
		e.run(1000);
		TB_CTX("read client %u alone, write client %u alone", c, c % NWR);
		TB_EQ(e.rd_fires, 1000);
		TB_EQ(e.wr_fires, 1000);
	}
	e.drain();
}
END_TEST

START_TEST(saturated_clients_are_granted_in_strict_rotation)
{
	ArbEnv e;
	for (Client &c : e.rc)
		c.pct = 100;
	for (Client &c : e.wc)
		c.pct = 100;
	e.run(1200);
	TB_CTX("every client always requesting, port always ready");
	TB_EQ(e.rd_fires, 1200);
	TB_EQ(e.wr_fires, 1200);
	for (std::size_t k = 0; k < e.rd_order.size(); k++) {
		TB_CTX("read handshake %zu", k);
		TB_EQ(e.rd_order[k], k % NRD);
	}
	for (std::size_t k = 0; k < e.wr_order.size(); k++) {
		TB_CTX("write handshake %zu", k);
		TB_EQ(e.wr_order[k], k % NWR);
	}
	e.drain();
}
END_TEST

START_TEST(rotation_is_kept_when_the_port_stalls)
{
	ArbEnv e;
	for (Client &c : e.rc)
		c.pct = 100;
	for (Client &c : e.wc)
		c.pct = 100;
	e.rd_ready_pct = 40;
	e.wr_ready_pct = 55;
	e.lat_max = 6;
	e.run(20000);
	TB_CTX("every client always requesting, port ready 40%% / 55%%");
	TB_TRUE(e.rd_fires > 7000 && e.wr_fires > 10000);
	for (std::size_t k = 0; k < e.rd_order.size(); k++) {
		TB_CTX("read handshake %zu", k);
		TB_EQ(e.rd_order[k], k % NRD);
	}
	for (std::size_t k = 0; k < e.wr_order.size(); k++) {
		TB_CTX("write handshake %zu", k);
		TB_EQ(e.wr_order[k], k % NWR);
	}
	e.drain();
}
END_TEST

START_TEST(stalled_port_keeps_grant_and_payload_when_a_higher_priority_client_arrives)
{
	ArbEnv e;
	// Pointers start at client 0.  Client 2 requests alone while the port
	// stalls; client 0 then arrives (it would win a fresh pick).
	e.force_rd_ready = 0;
	e.force_wr_ready = 0;
	e.rc[2].valid = true;
	e.rc[2].pa = 0x2aaaaaaa8ull;
	e.wc[2].valid = true;
	e.wc[2].pa = 0x155555550ull | 1ull << tp::paddr::sys.lsb;
	e.wc[2].data = 0x0123456789abcdefull;
	e.wc[2].strb = 0x5a;
	e.cycle();
	TB_CTX("client 2 alone, port stalled");
	e.d->eval();
	TB_EQ(e.d->m_rd_tag, 2);
	TB_EQ(e.d->m_wr_tag, 2);
	e.rc[0].valid = true;
	e.rc[0].pa = 0x100000000ull;
	e.wc[0].valid = true;
	e.wc[0].pa = 0x200000008ull;
	e.wc[0].data = 1;
	e.wc[0].strb = 0xff;
	for (int i = 0; i < 3; i++) {
		e.cycle(); // the hold checker fails if the payload or tag moves
		e.d->eval();
		TB_CTX("client 0 arrived %d cycles ago, port stalled", i + 1);
		TB_EQ(e.d->m_rd_tag, 2);
		TB_EQ(e.d->m_wr_tag, 2);
	}
	TB_EQ(e.rd_fires + e.wr_fires, 0);
	e.force_rd_ready = 1;
	e.force_wr_ready = 1;
	e.cycle();
	TB_CTX("port ready again");
	TB_EQ(e.rd_fires, 1);
	TB_EQ(e.wr_fires, 1);
	TB_EQ(e.rd_order[0], 2);
	TB_EQ(e.wr_order[0], 2);
	e.cycle();
	TB_EQ(e.rd_order.at(1), 0);
	TB_EQ(e.wr_order.at(1), 0);
	e.drain();
}
END_TEST

START_TEST(waiting_client_is_passed_over_at_most_n_minus_1_times)
{
	ArbEnv e;
	for (int phase = 0; phase < 20; phase++) {
		for (Client &c : e.rc)
			c.pct = e.rng.below(101);
		for (Client &c : e.wc)
			c.pct = e.rng.below(101);
		e.rd_ready_pct = 20 + e.rng.below(81);
		e.wr_ready_pct = 20 + e.rng.below(81);
		e.lat_max = 1 + e.rng.below(8);
		e.run(5000);
	}
	TB_CTX("random traffic, 100000 cycles");
	TB_TRUE(e.rd_fires > 20000 && e.wr_fires > 20000);
	TB_TRUE(e.max_rd_skip <= NRD - 1);
	TB_TRUE(e.max_wr_skip <= NWR - 1);
	e.drain();
}
END_TEST

START_TEST(responses_reach_their_client_by_tag_in_request_order)
{
	ArbEnv e;
	uint64_t issued = 0;
	for (int phase = 0; phase < 10; phase++) {
		for (Client &c : e.rc)
			c.pct = 30 + e.rng.below(71);
		for (Client &c : e.wc)
			c.pct = 30 + e.rng.below(71);
		e.rd_ready_pct = 50 + e.rng.below(51);
		e.wr_ready_pct = 50 + e.rng.below(51);
		e.lat_max = 1 + e.rng.below(30); // many responses in flight
		e.run(3000);
	}
	e.drain(); // every request answered exactly once, in order (checked per cycle)
	for (const Client &c : e.rc)
		issued += c.issued;
	for (const Client &c : e.wc)
		issued += c.issued;
	TB_CTX("random traffic with long latencies");
	TB_TRUE(issued > 40000);
}
END_TEST

// ---- RMW lock ----

START_TEST(locked_beat_holds_other_writes_while_other_beats_reads_and_the_owner_proceed)
{
	ArbEnv e;
	const uint64_t B = 0x0123456788ull;                    // local aperture
	const uint64_t B_SYS = B | 1ull << tp::paddr::sys.lsb;   // same address, system memory
	for (int round = 0; round < 8; round++) {
		e.reset_stats();
		e.locked_fires = e.owner_locked_fires = e.other_beat_fires_locked = e.rd_fires_locked = 0;
		for (Client &c : e.rc) {
			c.pct = 60;
			c.target = B;
			c.target_pct = 50; // reads of the locked beat are never held back
		}
		for (unsigned i = 0; i < NWR; i++) {
			e.wc[i].pct = 70;
			e.wc[i].target = round & 1 ? B_SYS : B; // odd rounds: the other aperture
			e.wc[i].target_pct = 60;
		}
		e.rd_ready_pct = 70;
		e.wr_ready_pct = 70;
		e.lat_max = 5;
		// lock raised while traffic runs: writes stalled at the port then
		// may still complete; after that, nothing of clients 0 and 2
		e.run(50);
		e.lock = true;
		e.lock_pa = B;
		e.run(20);
		e.locked_fires = 0;
		uint64_t fires0 = e.wc[0].issued, fires2 = e.wc[2].issued;
		e.run(3000);
		TB_CTX("round %d: lock on beat %llx, clients target %s", round, (unsigned long long)B,
		       round & 1 ? "the same address in the other aperture" : "the locked beat");
		TB_EQ(e.locked_fires, 0);
		TB_TRUE(e.owner_locked_fires > 100 || (round & 1));
		TB_TRUE(e.other_beat_fires_locked > 500);
		TB_TRUE(e.rd_fires_locked > 1000);
		if (round & 1) {
			// another aperture is another beat: clients 0 and 2 keep going
			TB_TRUE(e.wc[0].issued - fires0 > 300);
			TB_TRUE(e.wc[2].issued - fires2 > 300);
		} else {
			// clients 0 and 2 stick at their first write to the beat
			TB_TRUE(e.wc[0].valid && e.wc[0].pa == B);
			TB_TRUE(e.wc[2].valid && e.wc[2].pa == B);
		}
		e.lock = false;
		e.drain(); // the held-back writes complete once the lock drops
	}
}
END_TEST

START_TEST(write_presented_before_the_lock_keeps_its_payload_and_completes_first)
{
	ArbEnv e;
	const uint64_t B = 0x2468ace0ull;
	e.force_wr_ready = 0;
	e.wc[0].valid = true; // client 0 presents a write to B; the port stalls
	e.wc[0].pa = B;
	e.wc[0].data = 0x1111222233334444ull;
	e.wc[0].strb = 0x0f;
	e.cycle();
	e.lock = true; // the lock comes up on B while it is stalled there
	e.lock_pa = B;
	e.log_lock_clear = true;
	for (int i = 0; i < 3; i++) {
		TB_CTX("lock up, client 0 alone and stalled at the port, cycle %d", i);
		e.cycle(); // the hold checker fails if valid drops or the payload moves
		e.d->eval();
		TB_EQ(e.d->m_wr_valid, 1);
		TB_EQ(e.d->m_wr_tag, 0);
		TB_EQ(e.d->lock_clear, 0);
	}
	e.wc[1].valid = true; // the owner's own write to B
	e.wc[1].pa = B;
	e.wc[1].data = 0x5555666677778888ull;
	e.wc[1].strb = 0xf0;
	e.wc[2].valid = true; // a third client also wants B
	e.wc[2].pa = B;
	e.wc[2].data = 0x9999aaaabbbbccccull;
	e.wc[2].strb = 0xff;
	for (int i = 0; i < 5; i++) {
		TB_CTX("lock up, client 0 stalled at the port, cycle %d", i);
		e.cycle(); // the hold checker fails if its payload or tag moves
		e.d->eval();
		TB_EQ(e.d->m_wr_tag, 0);
		TB_EQ(e.d->lock_clear, 0);
	}
	TB_EQ(e.wr_fires, 0);
	e.force_wr_ready = 1;
	e.cycle(); // client 0 completes
	TB_CTX("port ready");
	TB_EQ(e.wr_fires, 1);
	TB_EQ(e.wr_order[0], 0);
	TB_EQ(e.locked_fires, 1);
	e.cycle(); // now lock_clear, and only the owner may write B
	TB_EQ(e.lock_clear_log.back(), 1);
	TB_EQ(e.wr_fires, 2);
	TB_EQ(e.wr_order[1], LOCK);
	for (int i = 0; i < 10; i++)
		e.cycle();
	TB_CTX("lock up, client 2 waiting for B");
	TB_EQ(e.wr_fires, 2);
	TB_TRUE(e.wc[2].valid);
	for (std::size_t i = 0; i < e.lock_clear_log.size(); i++)
		TB_EQ(e.lock_clear_log[i], i >= 9);
	e.lock = false;
	e.cycle();
	TB_CTX("lock down");
	TB_EQ(e.wr_fires, 3);
	TB_EQ(e.wr_order[2], 2);
	e.drain();
}
END_TEST

START_TEST(random_locks_on_busy_beats_never_let_a_new_write_in)
{
	ArbEnv e;
	const uint64_t beats[3] = {0x10000ull, 0x10008ull, 0x10000ull | 1ull << tp::paddr::sys.lsb};
	uint64_t locked_cycles = 0;
	for (int phase = 0; phase < 400; phase++) {
		for (Client &c : e.rc) {
			c.pct = e.rng.below(101);
			c.target = beats[e.rng.below(3)];
			c.target_pct = 50;
		}
		for (Client &c : e.wc) {
			c.pct = e.rng.below(101);
			c.target = beats[e.rng.below(3)];
			c.target_pct = 70;
		}
		e.rd_ready_pct = 20 + e.rng.below(81);
		e.wr_ready_pct = 20 + e.rng.below(81);
		e.lat_max = 1 + e.rng.below(8);
		e.lock = e.rng.below(3) != 0;
		e.lock_pa = beats[e.rng.below(3)];
		unsigned n = 5 + e.rng.below(200);
		e.run(n); // the per-cycle checks are the test
		if (e.lock)
			locked_cycles += n;
	}
	TB_CTX("random locks");
	TB_TRUE(locked_cycles > 10000);
	TB_TRUE(e.owner_locked_fires > 100);
	e.drain();
}
END_TEST

int main()
{
	return tb_run_suite("mem_arb", {
		lone_client_streams_one_read_and_one_write_per_cycle,
		saturated_clients_are_granted_in_strict_rotation,
		rotation_is_kept_when_the_port_stalls,
		stalled_port_keeps_grant_and_payload_when_a_higher_priority_client_arrives,
		waiting_client_is_passed_over_at_most_n_minus_1_times,
		responses_reach_their_client_by_tag_in_request_order,
		locked_beat_holds_other_writes_while_other_beats_reads_and_the_owner_proceed,
		write_presented_before_the_lock_keeps_its_payload_and_completes_first,
		random_locks_on_busy_beats_never_let_a_new_write_in,
	});
}
