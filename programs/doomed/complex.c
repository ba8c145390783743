/* Sorted tree (seed 004, Fig. 3, COMPLEX): an Entry is an index into the
   arrays below and 0 is the null pointer; `x->f` is `f[deref(x)]`, where
   deref asserts that x is not null. */
int left[16];
int right[16];
int keys[16];
int data[16];
int deref(int p)
{
    assert(p != 0);
    return p;
}
void update(int root,
            int key, int dat) {
    int x = root;
    while (keys[deref(x)] != key) {
        if (key < keys[deref(x)])
            x = left[deref(x)];
        else
            x = right[deref(x)];
    }
    data[deref(x)] = dat;
}

/* Lines 12-22 are the figure's. It works when the tree holds the key and
   crashes when it does not: some runs end normally, so nothing is doomed
   and nothing is reported. */
int main(void)
{
    update(nondet(), nondet(), nondet());
    return 0;
}
