/* The largest element of a[0..n-1]: it bounds every element and is one
   of them. Proved with three loop invariants. */
#define N 6
int a[N];

/*@ requires 1 <= n && n <= N;
    ensures \forall int i; 0 <= i < n ==> a[i] <= \result;
    ensures \exists int i; 0 <= i < n && a[i] == \result;
    assigns \nothing; */
int max(int n) {
  int m = a[0];
  int i = 1;
  /*@ loop invariant 1 <= i && i <= n;
      loop invariant \forall int k; 0 <= k < i ==> a[k] <= m;
      loop invariant \exists int k; 0 <= k < i && a[k] == m; */
  while (i < n) {
    if (a[i] > m)
      m = a[i];
    i++;
  }
  return m;
}

int main(void) {
  return max(N);
}
