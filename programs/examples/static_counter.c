/* static_counter.c -- a `static` local keeps its value between calls;
 * `while (1)` left with `break`; reach_error() marks the error; `rounds`,
 * an uninitialised local of main(), is an input.
 * Bug: tick() calls reach_error() (line 10) on its fourth call. main()
 * calls it once per round and stops after `rounds` rounds, so the error is
 * reachable exactly when the input rounds is 4 or more. */
void tick() {
  static int calls = 0;
  calls++;
  if (calls > 3) reach_error();
}

int main() {
  int rounds;
  int done = 0;
  while (1) {
    if (done >= rounds)
      break;
    tick();
    done++;
  }
  return done;
}
