/* shipping_new.c -- a changed version of shipping_ref.c. Two edits: the
   weight fee is simplified (4 + (kg - 2) * 2 is 2 * kg: no effect), and the
   free-shipping test became `>` (orders of exactly 50 now pay: a bug). */
int free_from = 50;

int weight_fee(int kg) {
    if (kg <= 2)
        return 4;
    return 2 * kg;
}

int shipping(int total, int kg, int express) {
    int fee = weight_fee(kg);
    if (total > free_from)
        fee = 0;
    if (express)
        fee = fee + 10;
    return fee;
}

int main() {
    int total;
    int kg;
    int express;
    return shipping(total, kg, express);
}
