/* Binary search in a sorted array: proved with three loop invariants
   (the range, and what lies left and right of it). */
#define N 8
int a[N] = {1, 3, 3, 5, 8, 13, 21, 34};

/*@ requires \forall int i, j; 0 <= i < N && 0 <= j < N && i <= j ==> a[i] <= a[j];
    ensures -1 <= \result && \result < N;
    ensures \result >= 0 ==> a[\result] == key;
    ensures \result == -1 ==> (\forall int i; 0 <= i < N ==> a[i] != key);
    assigns \nothing; */
int search(int key) {
  int lo = 0;
  int hi = N - 1;
  /*@ loop invariant 0 <= lo && lo <= N && -1 <= hi && hi < N && lo <= hi + 1;
      loop invariant \forall int i; 0 <= i < lo ==> a[i] < key;
      loop invariant \forall int i; hi < i < N ==> a[i] > key; */
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] < key)
      lo = mid + 1;
    else if (a[mid] > key)
      hi = mid - 1;
    else
      return mid;
  }
  return -1;
}

int main(void) {
  return search(nondet());
}
