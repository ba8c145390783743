/* An error after 17 iterations (`check --engine auto`): past its --unroll
   bound the Datalog engine widens `s` and finds no feasible path; the VC
   engine's model replays to the error in the interpreter. */
int main(void) {
  int n;
  int i = 0;
  int s = 0;
  while (i < n) {
    s = s + 3;
    i++;
  }
  assert(s != 51);
  return 0;
}
