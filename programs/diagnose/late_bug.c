/* A real bug that needs 50 loop iterations and flag set: `check` gives up
   (it widens the loop after 10 iterations) and `verify` cannot replay its
   havocked trace. The answers "no" to "j >= -49 after the loop" and "no"
   to "!flag on entry" lead to the witness "flag && j < -49", and "yes"
   validates it; `--oracle run` finds a run for each. Run with --no-infer. */
int main(int flag, int n) {
  int i = 0, j = 0;
  /*@ loop invariant i >= 0; */
  while (i < n) {
    i++;
    j = j - 1;
  }
  if (flag) assert(j > -50);
  return 0;
}
