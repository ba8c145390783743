/* NegateFirst (seed 002, section 3.1): negate the first negative element
   of ia[0..Length-1]. The fixed version: every VC is proved.
   The seed's specifications are too weak to prove even the fixed program;
   here they are strengthened: Length >= 0, a frame part in the invariant
   for the indices not yet visited, the postcondition over 0 <= k < Length.
   See negate_first_bug.c for the bug. */
#define N 8
int ia[N];

/*@ requires 0 <= Length && Length <= N;
    ensures \forall int k; 0 <= k < Length ==>
      (((\old(ia[k]) < 0 && (\forall int j; 0 <= j < k ==> \old(ia[j]) >= 0)) ==> ia[k] == -\old(ia[k]))
       && (\old(ia[k]) >= 0 ==> ia[k] == \old(ia[k])));
    assigns ia[..]; */
void NegateFirst(int Length) {
  int i;
  i = 0;
  /*@ loop invariant 0 <= i && i <= Length
        && (\forall int j; 0 <= j < i ==> ia[j] >= 0 && ia[j] == \at(ia[j], Pre))
        && (\forall int j; i <= j < N ==> ia[j] == \at(ia[j], Pre)); */
  while (i < Length) {
    if (ia[i] < 0) {
      ia[i] = -ia[i];
      goto L;
    }
    i = i + 1;
  }
L:;
}

int main(void) {
  NegateFirst(4);
  return 0;
}
