/* Prints the first line of a file and the size of its header. */
#include <stdio.h>
#include <string.h>
int main(void) {
    FILE *f = fopen("data.txt", "r");
    if (!f) {
        perror("data.txt");
        return 1;
    }
    char line[16];
    if (fgets(line, sizeof line, f))
        fputs(line, stdout);
    unsigned char header[4];
    size_t n = fread(header, 1, sizeof header, f);
    if (ferror(f))
        n = 0;
    fclose(f);
    printf("%u\n", (unsigned)n);
    return 0;
}
