/* A loop only the VC engine decides (`check --engine auto`): the Datalog
   engine widens `res` and `cnt` apart, the VC engine proves the assertion
   with the inferred invariant `res + cnt == \at(res + cnt, LoopEntry)`
   (a relation with the loop-entry values). */
int main(void) {
  int a;
  int b;
  if (a > 1000000 || b < 0 || b > 1000000)
    return 0;
  int res = a;
  int cnt = b;
  while (cnt > 0) {
    cnt = cnt - 1;
    res = res + 1;
  }
  assert(res == a + b);
  return 0;
}
