/* The image of image_ok.c, with the flip written with a bound off by
   one: the bottom row pointer starts one row past the image, and the
   first swap reads through it. */
#include <assert.h>
#include <stdio.h>

#define H 3
#define W 2

static int img[H][W];

int main(void) {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      if (scanf("%d", &img[y][x]) != 1)
        return 1;
  int (*top)[W] = img, (*bottom)[W] = img + H;
  while (top < bottom) {
    for (int x = 0; x < W; x++) {
      int t = (*top)[x];
      (*top)[x] = (*bottom)[x];
      (*bottom)[x] = t;
    }
    top++;
    bottom--;
  }
  printf("%d\n", img[0][0]);
  return 0;
}
