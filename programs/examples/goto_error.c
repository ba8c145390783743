/* goto_error.c -- the SV-COMP layout: a file-defined __VERIFIER_assert
 * with `goto ERROR;` and a label, reach_error(), abort(), a `static` global,
 * `_Bool`, `short`, `char`, `long`, and __VERIFIER_nondet_X() for several
 * types (globals start at 0 in such files).
 * Bug: reach_error() on line 17 is reachable: with c == 'y', s > 100 and
 * flag true, `hits` is 2 and the assertion on line 35 fails. */
extern void abort(void);
extern void reach_error(void);
extern char __VERIFIER_nondet_char(void);
extern short __VERIFIER_nondet_short(void);
extern _Bool __VERIFIER_nondet_bool(void);

void __VERIFIER_assert(int cond) {
  if (!cond) goto ERROR;
  return;
ERROR:
  reach_error();
  abort();
}

static long hits;

void count(_Bool yes) {
  if (yes) hits++;
}

int main() {
  char c = __VERIFIER_nondet_char();
  short s = __VERIFIER_nondet_short();
  _Bool flag = __VERIFIER_nondet_bool();
  if (!flag)
    abort();
  count(c == 'y');
  count(s > 100);
  __VERIFIER_assert(hits < 2);
  return 0;
}
