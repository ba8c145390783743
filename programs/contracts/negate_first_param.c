/* NegateFirst as seed 002 writes it (section 3.1): the array is a
   parameter. Negate the first negative element of ia[0..Length-1].
   The fixed version: every VC is proved, for every caller whose array
   has Length elements (`\valid`), whichever object it is.
   The seed's specification, strengthened as in negate_first.c: Length
   >= 0, the postcondition over 0 <= k < Length, and the frame: only
   ia[0..Length-1] may change. See negate_first_param_bug.c for the bug. */
int data[8];

/*@ requires 0 <= Length && \valid(ia + (0..Length-1));
    ensures \forall int k; 0 <= k < Length ==>
      (((\old(ia[k]) < 0 && (\forall int j; 0 <= j < k ==> \old(ia[j]) >= 0)) ==> ia[k] == -\old(ia[k]))
       && (\old(ia[k]) >= 0 ==> ia[k] == \old(ia[k])));
    assigns ia[0..Length-1]; */
void NegateFirst(int ia[], int Length) {
  int i;
  /*@ loop invariant 0 <= i && i <= Length
        && (\forall int j; 0 <= j < i ==> ia[j] >= 0 && ia[j] == \at(ia[j], Pre)); */
  for (i = 0; i < Length; i++) {
    if (ia[i] < 0) {
      ia[i] = -ia[i];
      break;
    }
  }
}

int main(void) {
  NegateFirst(data + 2, 6);
  return 0;
}
