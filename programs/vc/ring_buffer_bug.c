/* ring_buffer_bug.c -- ring_buffer.c with an off-by-one in the capacity
 * test: `push` accepts an element when the buffer holds CAP already
 * (`>` for `>=`, line 28), so after CAP + 1 pushes the count is CAP + 1
 * and the assertion `r.count <= CAP` (line 62) fails: `reach_error()` is
 * called. The explanation's FSS holds the faulty test. */
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "ring_buffer_bug.c", 8, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); } }

#define CAP 8
#define OPS 20

struct ring {
  int data[CAP];
  int head;
  int tail;
  int count;
};

void init(struct ring *r) {
  r->head = 0;
  r->tail = 0;
  r->count = 0;
}

int push(struct ring *r, int v) {
  if (r->count > CAP)
    return 0;
  r->data[r->tail] = v;
  r->tail = (r->tail + 1) % CAP;
  r->count++;
  return 1;
}

int pop(struct ring *r, int *out) {
  if (r->count == 0)
    return 0;
  *out = r->data[r->head];
  r->head = (r->head + 1) % CAP;
  r->count--;
  return 1;
}

int main(void) {
  struct ring r;
  init(&r);
  int next_in = 0;
  int next_out = 0;
  for (int i = 0; i < OPS; i++) {
    if (__VERIFIER_nondet_int()) {
      if (push(&r, next_in))
        next_in++;
    } else {
      int v;
      if (pop(&r, &v)) {
        __VERIFIER_assert(v == next_out);
        next_out++;
      }
    }
    __VERIFIER_assert(r.count == next_in - next_out);
    __VERIFIER_assert(r.count >= 0 && r.count <= CAP);
    __VERIFIER_assert(r.head >= 0 && r.head < CAP);
    __VERIFIER_assert(r.tail >= 0 && r.tail < CAP);
  }
  return 0;
}
