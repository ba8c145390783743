/* A small grey image kept as an array of rows and walked with pointers
   to rows, as C programs do: each row is blurred in place, then the image
   is flipped upside down by swapping rows through two row pointers. */
#include <assert.h>
#include <stdio.h>

#define H 3
#define W 2

static int img[H][W];

static void blur_row(int (*row)[W]) {
  for (int x = 1; x < W; x++)
    (*row)[x] = ((*row)[x - 1] + (*row)[x]) / 2;
}

int main(void) {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      if (scanf("%d", &img[y][x]) != 1 || img[y][x] < 0 || img[y][x] > 255)
        return 1;
  for (int (*r)[W] = img; r < img + H; r++)
    blur_row(r);
  int (*top)[W] = img, (*bottom)[W] = img + H - 1;
  while (top < bottom) {
    for (int x = 0; x < W; x++) {
      int t = (*top)[x];
      (*top)[x] = (*bottom)[x];
      (*bottom)[x] = t;
    }
    top++;
    bottom--;
  }
  assert(bottom - img == (H - 1) / 2);
  for (int y = 0; y < H; y++)
    assert(*(*(img + y) + W - 1) <= 255);
  printf("%d\n", img[0][0]);
  return 0;
}
