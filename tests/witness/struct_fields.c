// A loop over the fields of a struct variable (one nested, one a
// pointer): the proof needs `o.in.n <= o.lim` (or `o.in.n <= 5`) at the
// `while`, stated over the fields as C names them; the pointer field's
// storage (an object's tag and offset) is not C and is never stated.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

struct in {
  int n;
  int *q;
};
struct outer {
  struct in in;
  int lim;
};

int main(void) {
  int x = 3;
  struct outer o;
  o.in.n = 0;
  o.in.q = &x;
  o.lim = 5;
  while (__VERIFIER_nondet_int()) {
    if (o.in.n < o.lim)
      o.in.n++;
    *o.in.q = o.in.n;
  }
  if (o.in.n > 5 || x > 5)
    reach_error();
  return 0;
}
