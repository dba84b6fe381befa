// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: following the serial console (see console.h).
 */
#include <stdlib.h>
#include <string.h>

#include "console.h"

/* Kernel log lines that fail the batch. */
static const char *const kernel_problems[] = {
	"Oops", "BUG:", "WARNING:", "Kernel panic", "kernel BUG",
	"general protection fault", "Unable to handle", "soft lockup",
	"hard LOCKUP", "self-detected stall", "detected stalls",
	"blocked for more than", "UBSAN:", "KASAN:", "refcount_t:",
	"list_add corruption", "list_del corruption",
};

void console_init(struct console *c, FILE *out, FILE *log, const struct strv *runs)
{
	memset(c, 0, sizeof(*c));
	c->out = out;
	c->log = log;
	c->runs = runs;
	c->t_start = now_s();
	c->res = calloc(runs->n ? runs->n : 1, sizeof(*c->res));
	if (!c->res)
		die("out of memory");
}

bool console_kernel_line(const char *s)
{
	if (*s++ != '[')
		return false;
	s += strspn(s, " ");
	if (!(*s >= '0' && *s <= '9'))
		return false;
	s += strspn(s, "0123456789");
	return *s == '.';
}

static void check_problem(struct console *c, const char *s)
{
	for (size_t i = 0; i < sizeof(kernel_problems) / sizeof(*kernel_problems); i++)
		if (strstr(s, kernel_problems[i])) {
			if (!strv_has(&c->problems, s))
				strv_push(&c->problems, xstrdup(s));
			return;
		}
}

static void console_line(struct console *c, char *s)
{
	char *mk = strstr(s, "@@PPU-");
	double t = now_s();
	unsigned int n;

	if (c->in_dmesg && !(mk && !strncmp(mk, "@@PPU-DMESG-END", 15))) {
		strv_push(&c->dmesg, xstrdup(s));
		check_problem(c, s);
		if (c->log)
			fprintf(c->log, "%s\n", s);
		return;
	}
	/* A file's data is not console output: it goes to its host file. */
	if (c->fetch && fetch_console_line(c->fetch, s, mk ? mk + 6 : NULL)) {
		c->blank = false;
		if (c->log && mk)
			fprintf(c->log, "%s\n", s);
		return;
	}
	/*
	 * Markers start with a newline so they begin a line whatever came
	 * before; the empty line that makes is not relayed.
	 */
	if (c->blank && !mk)
		fputc('\n', c->log ? c->log : c->out);
	c->blank = !*s;
	if (c->blank)
		return;
	if (!mk || c->log)
		fprintf(c->log ? c->log : c->out, "%s\n", s);
	if (console_kernel_line(s))
		check_problem(c, s);
	if (!mk)
		return;
	mk += 6;
	if (!strncmp(mk, "BOOTED", 6)) {
		c->booted = true;
		c->t_boot = t;
		fprintf(c->out, PROG ": guest booted in %.1f s\n",
			t - c->t_start);
	} else if (!strncmp(mk, "MODULE-FAIL", 11)) {
		c->module_fail++;
		fprintf(c->out, PROG ": insmod failed:%s\n", mk + 11);
	} else if (sscanf(mk, "RUN-BEGIN %u", &n) == 1 && n >= 1 &&
		   n <= c->runs->n) {
		unsigned long long cyc = 0;

		c->res[n - 1].begun = true;
		c->res[n - 1].t_begin = t;
		c->res[n - 1].has_cycles =
			sscanf(mk, "RUN-BEGIN %*u %llu", &cyc) == 1;
		c->res[n - 1].cyc_begin = cyc;
		c->running = (int)n;
		c->t_progress = t;
		fprintf(c->out, PROG ": [%u] %s\n", n, c->runs->v[n - 1]);
	} else if (sscanf(mk, "RESULT %u", &n) == 1 && n >= 1 &&
		   n <= c->runs->n) {
		struct result *r = &c->res[n - 1];
		const char *st = mk + strlen("RESULT ") + strspn(mk + 7, "0123456789");

		unsigned long long cyc = 0;
		char cbuf[32];

		st += strspn(st, " ");
		r->done = true;
		r->t_end = t;
		r->skipped = !strncmp(st, "skipped", 7);
		r->status = r->skipped ? -1 : atoi(st);
		r->has_cycles = r->has_cycles && !r->skipped &&
				sscanf(st, "%*d %llu", &cyc) == 1 && cyc >= r->cyc_begin;
		r->cyc_end = r->has_cycles ? cyc : 0;
		c->running = 0;
		if (r->has_cycles)
			console_fmt_cycles(cbuf, sizeof(cbuf), r->cyc_end - r->cyc_begin);
		if (r->skipped)
			fprintf(c->out, PROG ": [%u] skipped\n", n);
		else if (r->has_cycles)
			fprintf(c->out, PROG ": [%u] exit status %d (%.2f s, %s PPU cycles)\n",
				n, r->status, r->t_end - r->t_begin, cbuf);
		else
			fprintf(c->out, PROG ": [%u] exit status %d (%.2f s)\n",
				n, r->status, r->t_end - r->t_begin);
	} else if (!strncmp(mk, "DMESG-BEGIN", 11)) {
		c->in_dmesg = true;
	} else if (!strncmp(mk, "DMESG-END", 9)) {
		c->in_dmesg = false;
	} else if (!strncmp(mk, "DONE", 4)) {
		c->done = true;
		c->t_done = t;
	}
}

void console_fmt_cycles(char *buf, size_t size, unsigned long long n)
{
	if (n >= 1000000)
		snprintf(buf, size, "%.1f M", (double)n / 1e6);
	else if (n >= 1000)
		snprintf(buf, size, "%llu k", (n + 500) / 1000);
	else
		snprintf(buf, size, "%llu", n);
}

void console_feed(struct console *c, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char ch = buf[i];

		/*
		 * SeaBIOS and the kernel reset the terminal: drop escape
		 * sequences (ESC x, ESC [ ... final) and other controls.
		 */
		if (c->esc == 1) {
			c->esc = ch == '[' ? 2 : 0;
			continue;
		}
		if (c->esc == 2) {
			if (ch >= 0x40 && ch <= 0x7e)
				c->esc = 0;
			continue;
		}
		if (ch == '\033') {
			c->esc = 1;
			continue;
		}
		if ((unsigned char)ch < 0x20 && ch != '\n' && ch != '\t')
			continue;
		if (ch == '\n' || c->len == sizeof(c->line) - 1) {
			c->line[c->len] = 0;
			console_line(c, c->line);
			c->len = 0;
			if (ch == '\n')
				continue;
		}
		c->line[c->len++] = ch;
	}
	fflush(c->out);
	if (c->log)
		fflush(c->log);
}

void console_flush(struct console *c)
{
	if (!c->len)
		return;
	c->line[c->len] = 0;
	console_line(c, c->line);
	c->len = 0;
}

bool console_progress(struct console *c, FILE *f, double now, double every_s)
{
	const struct result *r;

	if (!c->running || every_s <= 0 || now - c->t_progress < every_s)
		return false;
	r = &c->res[c->running - 1];
	c->t_progress = now;
	fprintf(f, PROG ": [%d/%zu] running for %.0f s: %s\n", c->running,
		c->runs->n, now - r->t_begin, c->runs->v[c->running - 1]);
	fflush(f);
	return true;
}
