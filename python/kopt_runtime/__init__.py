"""The modules of kopt's Python runner (share/kopt/kopt_runner.py): references and Triton
kernels run here, in a process kopt starts and watches."""
