/* lock_nondet.c -- the paper's style: `typedef int bool;`, `true`/`false`,
 * globals without initialisers (their start values are inputs), `if (*)`,
 * `while (*)`, nondet(), and an `error` flag (the default condition).
 * Bug: acquire() sets error = true on line 14 when the lock is already
 * held: when the input `locked` is nonzero, or when nondet() on line 26
 * returns 0 so the lock is kept into the next acquire(). */
typedef int bool;

int locked;
int rounds;
bool error = false;

void acquire() {
  if (locked) error = true;
  else locked = 1;
}

void release() {
  locked = 0;
}

int main() {
  while (*) {
    acquire();
    rounds++;
    if (nondet() != 0) release();
  }
  if (*) acquire();
  return 0;
}
