/* Seed 003 (Dillig, Dillig, Aiken), Example 1: the report at the assert
   is a false alarm, discharged by one question: "j >= 0" after the loop.
   The seed's annotation @[i > -1 && i > a2] is a fact after the loop; as
   a loop invariant only `i > -1` holds (`i > a2` is false on entry when
   a2 >= 0; the loop's exit test gives it after the loop). Run with
   --no-infer to reproduce the seed's setting (inference finds j >= 0). */
int main(int a1, int a2) {
  int k, i = 0, j = 0, z;
  if (a2 > 0) k = a2; else k = 1;
  /*@ loop invariant i > -1 && i > a2; */
  while (i < a2 + 1) {
    i = i + 1;
    j = j + i;
  }
  if (a1 > 0) z = k + i + j; else z = 2 * a2 + 1;
  assert(z > 2 * a2);
  return 0;
}
