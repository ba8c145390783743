/* shipping_ref.c -- the reference version of a shipping-cost function.
   Compare with shipping_new.c:
     focuscheck diff programs/diff/shipping_ref.c programs/diff/shipping_new.c --entry shipping */
int free_from = 50;

int weight_fee(int kg) {
    if (kg <= 2)
        return 4;
    return 4 + (kg - 2) * 2;
}

int shipping(int total, int kg, int express) {
    int fee = weight_fee(kg);
    if (total >= free_from)
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
