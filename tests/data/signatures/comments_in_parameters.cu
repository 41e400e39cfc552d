// Comments and line breaks everywhere inside the parameter list.
#include <cuda_runtime.h>

extern "C"
void
solve(
    const float* input,   // [rows x cols], row-major
    /* the result */ float* output,
    int rows, /* number of rows */
    int /* columns, */ cols // trailing comment, no comma
    )
{
    (void)input; (void)output; (void)rows; (void)cols;
}
