/* NegateFirst as seed 002 writes it (section 3.1), with its bug: the
   minus sign dropped in `ia[i] = ia[i]` (line 19). `focuscheck verify`
   fails exactly the VC of the "then" branch, and `check` finds a run
   that breaks the postcondition: the first element negative.
   The specification is negate_first_param.c's. */
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
      ia[i] = ia[i];
      break;
    }
  }
}

int main(void) {
  NegateFirst(data + 2, 6);
  return 0;
}
