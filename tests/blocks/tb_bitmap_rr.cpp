// SPDX-License-Identifier: MIT
/*
 * ppu_bitmap_rr on its own, in three configurations: the defaults (4096
 * positions, 4 kinds), 200 positions of 3 kinds (a count that is not a
 * multiple of 64: a partial last word) and 16 positions of 1 kind (one
 * word).  The RAM starts with random contents (x-initial unique): the
 * summary bits alone say which words hold members.
 *
 * The reference is a plain bit vector per kind and a linear round-robin
 * search.  While no update runs beside a search, every answer must be the
 * reference's exactly.  With updates in every cycle, an answer must be
 * explainable by the sets during the search (a found position was a member
 * at its start or was set during it; "nothing" only if no position of the
 * range was a member all through it), and once the updates stop every
 * search must again match the reference: no member lost to a summary bit
 * cleared in a race.
 */
#include "Vppu_bitmap_rr.h"
#include "Vppu_bitmap_rr_min.h"
#include "Vppu_bitmap_rr_odd.h"
#include "tb_common.h"

#include <vector>

namespace {

struct Upd {
	unsigned kind, pos;
	bool set;
};

struct Query {
	unsigned kinds, lo, hi, from;
	bool excl_v;
	unsigned excl;
};

struct Answer {
	bool found;
	unsigned pos;
	uint64_t cycles; // query cycle -> the cycle r_valid is seen
};

template <class M> class BmEnv {
public:
	Dut<M> d;
	const unsigned n, kinds, pw;
	std::vector<std::vector<bool>> ref; // [kind][pos]
	Rng rng;

	BmEnv(unsigned n_, unsigned kinds_, int seed)
	    : d(seed), n(n_), kinds(kinds_), pw(n_ > 1 ? 64 - __builtin_clzll(n_ - 1) : 1),
	      ref(kinds_, std::vector<bool>(n_, false)), rng(seed)
	{
		idle();
		d.reset();
	}

	void idle()
	{
		d->upd_valid = 0;
		d->upd_set = 0;
		d->upd_pos = 0;
		d->q_valid = 0;
		d->q_kinds = 0;
		d->q_lo = d->q_hi = d->q_from = 0;
		d->q_excl_v = 0;
		d->q_excl = 0;
		d->mv_valid = 0;
		d->mv_from = 0;
		d->mv_to = 0;
	}

	// Drive this cycle's updates (at most one per kind); the reference
	// takes them at the edge.
	void drive_updates(const std::vector<Upd> &u)
	{
		uint64_t v = 0, s = 0, p = 0;
		for (const Upd &x : u) {
			v |= 1ull << x.kind;
			s |= uint64_t(x.set) << x.kind;
			p |= uint64_t(x.pos) << (x.kind * pw);
		}
		d->upd_valid = v;
		d->upd_set = s;
		d->upd_pos = p;
	}
	void commit_updates(const std::vector<Upd> &u)
	{
		for (const Upd &x : u)
			ref[x.kind][x.pos] = x.set;
	}

	void apply(const std::vector<Upd> &u)
	{
		drive_updates(u);
		d.tick();
		commit_updates(u);
		d->upd_valid = 0;
	}

	std::vector<Upd> random_updates(unsigned set_pct, unsigned max_pos)
	{
		std::vector<Upd> u;
		for (unsigned k = 0; k < kinds; k++)
			if (rng.pct(60))
				u.push_back(Upd{k, rng.below(max_pos), rng.pct(set_pct)});
		return u;
	}

	Query random_query()
	{
		Query q;
		q.kinds = 1 + rng.below((1u << kinds) - 1);
		q.lo = rng.below(n);
		q.hi = q.lo + rng.below(n - q.lo);
		if (rng.pct(30)) {
			q.lo = 0;
			q.hi = n - 1;
		}
		q.from = q.lo + rng.below(q.hi - q.lo + 1);
		q.excl_v = rng.pct(50);
		q.excl = rng.pct(50) ? q.from : rng.below(n);
		return q;
	}

	bool member(unsigned kinds_mask, unsigned p) const
	{
		for (unsigned k = 0; k < kinds; k++)
			if ((kinds_mask >> k & 1) && ref[k][p])
				return true;
		return false;
	}

	// The reference: the first member at or after from up to hi, then
	// from lo up to from - 1.
	Answer expect(const Query &q) const
	{
		for (unsigned i = 0; i <= q.hi - q.lo; i++) {
			unsigned p = q.from + i;
			if (p > q.hi)
				p -= q.hi - q.lo + 1;
			if (q.excl_v && p == q.excl)
				continue;
			if (member(q.kinds, p))
				return Answer{true, p, 0};
		}
		return Answer{false, 0, 0};
	}

	// Present a query and wait for the answer; updates[i] (if any) are
	// driven in the i-th cycle from the query's.
	Answer search(const Query &q, const std::vector<std::vector<Upd>> *updates = nullptr,
		      std::vector<std::vector<bool>> *start = nullptr)
	{
		TB_TRUE(d->q_ready);
		if (start)
			*start = ref;
		d->q_valid = 1;
		d->q_kinds = q.kinds;
		d->q_lo = q.lo;
		d->q_hi = q.hi;
		d->q_from = q.from;
		d->q_excl_v = q.excl_v;
		d->q_excl = q.excl;
		for (uint64_t c = 0; c < 1000; c++) {
			const std::vector<Upd> none;
			const std::vector<Upd> &u = (updates && c < updates->size()) ? (*updates)[c] : none;
			drive_updates(u);
			d.tick();
			commit_updates(u);
			d->q_valid = 0;
			d->upd_valid = 0;
			if (d->r_valid)
				return Answer{bool(d->r_found), unsigned(d->r_pos), c + 1};
			TB_TRUE(!d->q_ready || c == 0);
		}
		TB_FAIL("no answer in 1000 cycles");
		return Answer{};
	}

	// Move kind `from` into kind `to`; gen(c) gives the updates driven in
	// the c-th cycle from the move's (recorded with the cycle in *log).
	// Returns the cycles until q_ready is up again.
	template <class G>
	uint64_t move(unsigned from, unsigned to, G gen, std::vector<std::pair<uint64_t, Upd>> *log)
	{
		TB_TRUE(d->q_ready);
		d->mv_valid = 1;
		d->mv_from = from;
		d->mv_to = to;
		for (uint64_t c = 0; c < 100000; c++) {
			std::vector<Upd> u = gen(c);
			drive_updates(u);
			d.tick();
			commit_updates(u);
			if (log)
				for (const Upd &x : u)
					log->push_back({c, x});
			d->mv_valid = 0;
			d->upd_valid = 0;
			if (d->q_ready)
				return c + 1;
		}
		TB_FAIL("move did not end in 100000 cycles");
		return 0;
	}

	// The members of one kind as the block holds them, by successive
	// searches over the whole range.
	std::vector<bool> read_kind(unsigned k)
	{
		std::vector<bool> m(n, false);
		unsigned from = 0;
		for (unsigned i = 0; i <= n; i++) {
			Answer a = search(Query{1u << k, 0, n - 1, from, false, 0});
			if (!a.found || m[a.pos])
				break;
			m[a.pos] = true;
			from = a.pos == n - 1 ? 0 : a.pos + 1;
		}
		return m;
	}

	void check_exact(const Query &q)
	{
		Answer a = search(q), e = expect(q);
		TB_CTX("kinds %x lo %u hi %u from %u excl %d:%u", q.kinds, q.lo, q.hi, q.from,
		       int(q.excl_v), q.excl);
		TB_EQ(a.found, e.found);
		if (e.found)
			TB_EQ(a.pos, e.pos);
	}
};

template <class M> void quiet_random(unsigned n, unsigned kinds, int seed)
{
	BmEnv<M> e(n, kinds, seed);
	for (unsigned p = 0; p < n; p += 1 + n / 50) {
		Query q{(1u << kinds) - 1, 0, n - 1, p, false, 0};
		e.check_exact(q);
	}
	for (int round = 0; round < 60; round++) {
		// dense and sparse phases, over all positions or a few words
		unsigned set_pct = round % 3 == 0 ? 80 : round % 3 == 1 ? 50 : 20;
		unsigned max_pos = round % 4 == 0 ? (n < 130 ? n : 130) : n;
		unsigned nupd = 1 + e.rng.below(round % 5 == 0 ? 2000 : 60);
		for (unsigned i = 0; i < nupd; i++)
			e.apply(e.random_updates(set_pct, max_pos));
		for (int i = 0; i < 40; i++)
			e.check_exact(e.random_query());
	}
}

// Round robin the way the scheduler will use it: each search starts after
// the position found last, so the members come in ring order, each once.
template <class M> void ring_order(unsigned n, unsigned kinds, int seed)
{
	BmEnv<M> e(n, kinds, seed);
	unsigned lo = n / 8, hi = n - 1 - n / 5;
	std::vector<unsigned> members;
	for (unsigned p = lo; p <= hi; p++)
		if (e.rng.pct(7) || p == hi) {
			unsigned k = e.rng.below(kinds);
			e.apply({Upd{k, p, true}});
			members.push_back(p);
		}
	// members outside the range are never found
	if (lo > 0)
		e.apply({Upd{0, lo - 1, true}});
	e.apply({Upd{0, n - 1, true}});
	unsigned from = lo + (hi - lo) / 3, first = 0;
	while (members[first] < from)
		first++;
	for (size_t i = 0; i < 2 * members.size(); i++) {
		Query q{(1u << kinds) - 1, lo, hi, from, false, 0};
		Answer a = e.search(q);
		TB_CTX("step %zu from %u", i, from);
		TB_TRUE(a.found);
		TB_EQ(a.pos, members[(first + i) % members.size()]);
		from = a.pos == hi ? lo : a.pos + 1;
	}
}

template <class M> void racing_updates(unsigned n, unsigned kinds, int seed)
{
	BmEnv<M> e(n, kinds, seed);
	unsigned searches = 0, found = 0;
	for (int round = 0; round < 40; round++) {
		// a few words only, so that searches and updates meet
		unsigned max_pos = round % 3 == 0 ? n : round % 3 == 1 ? (n < 192 ? n : 192) : (n < 64 ? n : 64);
		unsigned set_pct = 30 + e.rng.below(50);
		for (int s = 0; s < 40; s++) {
			Query q = e.random_query();
			std::vector<std::vector<Upd>> ups(12);
			for (auto &u : ups)
				u = e.random_updates(set_pct, max_pos);
			std::vector<std::vector<bool>> start;
			Answer a = e.search(q, &ups, &start);
			searches++;
			// positions changed during the search (cycles 0 .. answer)
			std::vector<bool> touched(n, false);
			for (uint64_t c = 0; c < a.cycles && c < ups.size(); c++)
				for (const Upd &x : ups[c])
					if (q.kinds >> x.kind & 1)
						touched[x.pos] = true;
			auto was_member = [&](unsigned p) {
				for (unsigned k = 0; k < kinds; k++)
					if ((q.kinds >> k & 1) && start[k][p])
						return true;
				return false;
			};
			TB_CTX("round %d search %d kinds %x lo %u hi %u from %u", round, s, q.kinds, q.lo,
			       q.hi, q.from);
			if (a.found) {
				found++;
				TB_TRUE(a.pos >= q.lo && a.pos <= q.hi);
				TB_TRUE(!(q.excl_v && a.pos == q.excl));
				TB_TRUE(was_member(a.pos) || touched[a.pos]);
			} else {
				for (unsigned p = q.lo; p <= q.hi; p++)
					if (!(q.excl_v && p == q.excl) && !touched[p])
						TB_TRUE(!was_member(p));
			}
		}
		// quiet again: exact, so no member was lost in a race
		for (int i = 0; i < 30; i++)
			e.check_exact(e.random_query());
	}
	TB_CTX("racing");
	TB_TRUE(searches == 1600);
	TB_TRUE(found > 200);
}

// A move without updates beside it: the target holds both kinds' members,
// the moved kind none, the other kinds are untouched.
template <class M> void quiet_moves(unsigned n, unsigned kinds, int seed)
{
	BmEnv<M> e(n, kinds, seed);
	for (int round = 0; round < 12; round++) {
		unsigned nupd = 1 + e.rng.below(round % 3 == 0 ? 3000 : 100);
		for (unsigned i = 0; i < nupd; i++)
			e.apply(e.random_updates(round % 2 ? 70 : 30, n));
		unsigned from = e.rng.below(kinds), to = (from + 1 + e.rng.below(kinds - 1)) % kinds;
		e.move(from, to, [](uint64_t) { return std::vector<Upd>(); }, nullptr);
		for (unsigned p = 0; p < n; p++) {
			if (e.ref[from][p])
				e.ref[to][p] = true;
			e.ref[from][p] = false;
		}
		for (int i = 0; i < 40; i++)
			e.check_exact(e.random_query());
		TB_CTX("round %d: kind %u moved to %u", round, from, to);
		for (unsigned k = 0; k < kinds; k++)
			TB_TRUE(e.read_kind(k) == e.ref[k]);
	}
}

// Updates of every kind in every cycle of a move.  Each word moves at one
// cycle of the move, atomically against the updates of the two kinds: the
// state the block ends with must be, word by word, the start state with
// the updates before some cycle t, the word's move, and the updates from
// t on.
template <class M> void racing_moves(unsigned n, unsigned kinds, int seed)
{
	BmEnv<M> e(n, kinds, seed);
	unsigned max_pos = n < 256 ? n : 256;
	uint64_t longest = 0;
	for (int round = 0; round < 20; round++) {
		for (unsigned i = 0; i < 400; i++)
			e.apply(e.random_updates(60, max_pos));
		unsigned from = e.rng.below(kinds), to = (from + 1 + e.rng.below(kinds - 1)) % kinds;
		std::vector<std::vector<bool>> start = e.ref;
		std::vector<std::pair<uint64_t, Upd>> log;
		unsigned pct = 20 + e.rng.below(60);
		uint64_t cycles = e.move(
		    from, to,
		    [&](uint64_t) {
			    std::vector<Upd> u;
			    for (unsigned k = 0; k < kinds; k++)
				    if (e.rng.pct(pct))
					    u.push_back(Upd{k, e.rng.below(max_pos), e.rng.pct(50)});
			    return u;
		    },
		    &log);
		longest = cycles > longest ? cycles : longest;
		std::vector<std::vector<bool>> got(kinds);
		for (unsigned k = 0; k < kinds; k++)
			got[k] = e.read_kind(k);
		for (unsigned w = 0; w * 64 < n; w++) {
			bool ok = false;
			for (uint64_t t = 0; t <= cycles && !ok; t++) {
				std::vector<std::vector<bool>> r = start;
				auto upd = [&](bool before) {
					for (const auto &x : log)
						if ((x.first < t) == before && x.second.pos / 64 == w)
							r[x.second.kind][x.second.pos] = x.second.set;
				};
				upd(true);
				for (unsigned p = w * 64; p < n && p < w * 64 + 64; p++) {
					if (r[from][p])
						r[to][p] = true;
					r[from][p] = false;
				}
				upd(false);
				ok = true;
				for (unsigned k = 0; k < kinds && ok; k++)
					for (unsigned p = w * 64; p < n && p < w * 64 + 64; p++)
						if (r[k][p] != got[k][p])
							ok = false;
			}
			TB_CTX("round %d: kind %u moved to %u, word %u", round, from, to, w);
			TB_TRUE(ok);
		}
		e.ref = got;
		for (int i = 0; i < 20; i++)
			e.check_exact(e.random_query());
	}
	TB_CTX("racing moves");
	TB_TRUE(longest > 8);
}

// ---------------------------------------------------------------------------

START_TEST(empty_sets_find_nothing_whatever_the_ram_held_at_reset)
{
	BmEnv<Vppu_bitmap_rr> e(4096, 4, 11);
	for (int i = 0; i < 50; i++)
		e.check_exact(e.random_query());
	BmEnv<Vppu_bitmap_rr_odd> o(200, 3, 12);
	for (int i = 0; i < 50; i++)
		o.check_exact(o.random_query());
}
END_TEST

START_TEST(searches_match_the_reference_4096_positions_4_kinds)
{
	quiet_random<Vppu_bitmap_rr>(4096, 4, 21);
}
END_TEST

START_TEST(searches_match_the_reference_200_positions_3_kinds)
{
	quiet_random<Vppu_bitmap_rr_odd>(200, 3, 22);
}
END_TEST

START_TEST(searches_match_the_reference_16_positions_1_kind)
{
	quiet_random<Vppu_bitmap_rr_min>(16, 1, 23);
}
END_TEST

START_TEST(successive_searches_visit_the_members_of_a_range_in_ring_order)
{
	ring_order<Vppu_bitmap_rr>(4096, 4, 31);
	ring_order<Vppu_bitmap_rr_odd>(200, 3, 32);
	ring_order<Vppu_bitmap_rr_min>(16, 1, 33);
}
END_TEST

START_TEST(updates_racing_searches_lose_no_member)
{
	racing_updates<Vppu_bitmap_rr>(4096, 4, 41);
	racing_updates<Vppu_bitmap_rr_odd>(200, 3, 42);
	racing_updates<Vppu_bitmap_rr_min>(16, 1, 43);
}
END_TEST

// The answer comes 3 cycles after the query when the first word read
// holds it, 2 more per further word read, whatever the number of
// positions: a word the summary marks is read, an unmarked one is not.
START_TEST(answer_latency_is_three_cycles_plus_two_per_further_word)
{
	BmEnv<Vppu_bitmap_rr> e(4096, 4, 51);
	e.apply({Upd{2, 4000, true}});
	Answer a = e.search(Query{0xf, 0, 4095, 0, false, 0});
	TB_CTX("far member");
	TB_TRUE(a.found);
	TB_EQ(a.pos, 4000);
	TB_EQ(a.cycles, 3);
	// nothing: no word read at all (the summary of the part is empty)
	a = e.search(Query{0x3, 0, 4095, 17, false, 0});
	TB_CTX("none");
	TB_TRUE(!a.found);
	TB_EQ(a.cycles, 3);
	// the word after from is empty past from: one more word, wrapping
	e.apply({Upd{0, 10, true}});
	a = e.search(Query{0x1, 0, 4095, 11, false, 0});
	TB_CTX("wrap");
	TB_TRUE(a.found);
	TB_EQ(a.pos, 10);
	TB_EQ(a.cycles, 6);
	// the excluded member alone in its word: one word read in vain
	a = e.search(Query{0x1, 0, 4095, 0, true, 10});
	TB_CTX("excluded");
	TB_TRUE(!a.found);
	TB_EQ(a.cycles, 4);
}
END_TEST

// A cleared member leaves its word's summary bit up until a search reads
// the word and finds it empty: that search pays one read, the next none.
START_TEST(a_search_clears_the_summary_of_a_word_it_finds_empty)
{
	BmEnv<Vppu_bitmap_rr> e(4096, 4, 61);
	e.apply({Upd{1, 700, true}});
	e.apply({Upd{1, 700, false}});
	Answer a = e.search(Query{0x2, 0, 4095, 0, false, 0});
	TB_CTX("first");
	TB_TRUE(!a.found);
	TB_EQ(a.cycles, 4);
	a = e.search(Query{0x2, 0, 4095, 0, false, 0});
	TB_CTX("second");
	TB_TRUE(!a.found);
	TB_EQ(a.cycles, 2);
	// a set in the word again is found
	e.apply({Upd{1, 701, true}});
	a = e.search(Query{0x2, 0, 4095, 0, false, 0});
	TB_CTX("again");
	TB_TRUE(a.found);
	TB_EQ(a.pos, 701);
}
END_TEST

// A search finds a word empty (its summary bit stale) while a member is
// set in that word in the cycle of the read (not in the data read) or in
// the cycle after (when the search would clear the summary bit): the bit
// stays up and the member is found.
START_TEST(a_set_racing_the_read_of_its_word_keeps_its_summary_bit)
{
	for (unsigned at = 0; at < 4; at++) {
		BmEnv<Vppu_bitmap_rr> e(4096, 4, 71 + at);
		e.apply({Upd{3, 1000, true}});
		e.apply({Upd{3, 1000, false}});
		// the query's cycle is 0; the word is read in cycle 1, found empty in 2
		std::vector<std::vector<Upd>> ups(at + 1);
		ups[at] = {Upd{3, 1001, true}};
		Answer a = e.search(Query{0x8, 0, 4095, 0, false, 0}, &ups);
		TB_CTX("set in cycle %u", at);
		// (read before the set unless the set came with the query)
		TB_EQ(a.found, at == 0);
		a = e.search(Query{0x8, 0, 4095, 0, false, 0});
		TB_TRUE(a.found);
		TB_EQ(a.pos, 1001);
	}
}
END_TEST

START_TEST(a_move_makes_one_kinds_members_members_of_another)
{
	quiet_moves<Vppu_bitmap_rr>(4096, 4, 81);
	quiet_moves<Vppu_bitmap_rr_odd>(200, 3, 82);
}
END_TEST

START_TEST(a_move_racing_updates_moves_each_word_at_one_point_and_loses_nothing)
{
	racing_moves<Vppu_bitmap_rr>(4096, 4, 91);
	racing_moves<Vppu_bitmap_rr_odd>(200, 3, 92);
}
END_TEST

// A move reads only the words the moved kind's summary marks: two cycles
// each, and two more to find that none is left.
START_TEST(a_move_takes_two_cycles_per_marked_word)
{
	BmEnv<Vppu_bitmap_rr> e(4096, 4, 101);
	uint64_t c = e.move(0, 1, [](uint64_t) { return std::vector<Upd>(); }, nullptr);
	TB_CTX("empty");
	TB_EQ(c, 2);
	for (unsigned p : {5u, 6u, 300u, 4095u})
		e.apply({Upd{0, p, true}});
	c = e.move(0, 1, [](uint64_t) { return std::vector<Upd>(); }, nullptr);
	TB_CTX("three words");
	TB_EQ(c, 2 + 3 * 2);
	TB_TRUE(e.read_kind(0) == std::vector<bool>(4096, false));
	std::vector<bool> exp(4096, false);
	for (unsigned p : {5u, 6u, 300u, 4095u})
		exp[p] = true;
	TB_TRUE(e.read_kind(1) == exp);
}
END_TEST

// A member of the moved kind set in its word while the move reads the word
// (not in the data read), or as the move would write it: the move reads
// the word again and takes the member along.
START_TEST(a_member_set_while_its_word_moves_moves_with_it)
{
	for (uint64_t at = 0; at < 4; at++) {
		BmEnv<Vppu_bitmap_rr> e(4096, 4, 111);
		e.apply({Upd{0, 3, true}});
		std::vector<std::pair<uint64_t, Upd>> log;
		e.move(0, 1, [&](uint64_t c) { return c == at ? std::vector<Upd>{Upd{0, 9, true}} : std::vector<Upd>(); },
		       &log);
		TB_CTX("set in cycle %llu", (unsigned long long)at);
		std::vector<bool> k0 = e.read_kind(0), k1 = e.read_kind(1);
		TB_TRUE(k1[3] && !k0[3]);
		// moved with the word, or set after it moved: in one kind only
		TB_TRUE(k0[9] != k1[9]);
		TB_EQ(k1[9], at <= 2);
	}
}
END_TEST

} // namespace

int main()
{
	return tb_run_suite("bitmap_rr", {
		empty_sets_find_nothing_whatever_the_ram_held_at_reset,
		searches_match_the_reference_4096_positions_4_kinds,
		searches_match_the_reference_200_positions_3_kinds,
		searches_match_the_reference_16_positions_1_kind,
		successive_searches_visit_the_members_of_a_range_in_ring_order,
		updates_racing_searches_lose_no_member,
		answer_latency_is_three_cycles_plus_two_per_further_word,
		a_search_clears_the_summary_of_a_word_it_finds_empty,
		a_set_racing_the_read_of_its_word_keeps_its_summary_bit,
		a_move_makes_one_kinds_members_members_of_another,
		a_move_racing_updates_moves_each_word_at_one_point_and_loses_nothing,
		a_move_takes_two_cycles_per_marked_word,
		a_member_set_while_its_word_moves_moves_with_it,
	});
}
