// A list built with malloc in a loop, freed node by node, read after free.
#include <stdlib.h>

struct node {
  int value;
  struct node *next;
};

int main(void) {
  struct node *head = NULL;
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n)
      return 1;
    n->value = i;
    n->next = head;
    head = n;
  }
  struct node *cur = head;
  while (cur) {
    free(cur);
    cur = cur->next;
  }
  return 0;
}
