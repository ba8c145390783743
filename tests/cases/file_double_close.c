/* Writes three lines to a file, then closes it twice. */
#include <stdio.h>
int main(void) {
    FILE *f = fopen("out.txt", "w");
    if (!f)
        return 1;
    for (int i = 0; i < 3; i++)
        fprintf(f, "%d\n", i);
    fclose(f);
    fclose(f);
    return 0;
}
