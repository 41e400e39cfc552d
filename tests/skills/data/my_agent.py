"""The program that kopt-optimize's `--agent "python3 my_agent.py" --candidates 3` example runs
in the skills' doc-test: it hands over two candidates of the next iteration, each with its own
strategy, as the skill tells a program to (docs/loop.md, "Rounds of candidates")."""
import os
import shutil

here = os.path.dirname(os.path.abspath(__file__))
out = os.environ["KOPT_CANDIDATES_DIR"]
with open(os.environ["KOPT_PROPOSAL"]) as f:
    proposal = f.read()  # its "## Strategy tags" list comes last
candidates = [
    (os.path.join(here, "softmax_v2.cu"), "one_block_per_row"),
    (os.environ["KOPT_BEST_VERSION"], "unchanged_control"),
]
for number, (source, tag) in enumerate(candidates, start=1):
    shutil.copyfile(source, os.path.join(out, f"cand_{number}.cu"))
    with open(os.path.join(out, f"cand_{number}.md"), "w") as f:
        f.write(proposal.rstrip("\n") + f"\n- {tag}\n")
