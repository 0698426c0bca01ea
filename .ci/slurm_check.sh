#!/usr/bin/env bash
# The SLURM profile on a real, single-node SLURM (docs/guide/cluster.md#tested).
#
#   .ci/slurm_check.sh [CONFIG [TARGET...]]   CONFIG defaults to config/tiny.yaml; TARGETs (say, a
#                                             paper's name: `bounds`) default to the whole workflow
#   PYTHON=/path/to/python SLURM_CHECK_TIMEOUT=1800 SLURM_CHECK_KEEP=1 .ci/slurm_check.sh /tmp/small.yaml
#   (interpreter; seconds allowed for each workflow run, default 1200; keep the temporary
#   directory with the logs and both copies even when the check passes)
#   SLURM_CHECK_REFERENCE=/path/to/finished/run .ci/slurm_check.sh config/tiny.yaml
#   (compare with that finished local run of the same config instead of running one: the test
#   suite passes its tiny run, tests/test_slurm.py)
#
# 1. Installs Debian's slurm-wlm and munge with apt-get when they are missing (needs root).
# 2. Writes a slurm.conf for this machine into a temporary directory (its hostname, the CPUs and
#    memory `slurmd -C` reports, two jobs per CPU; no cgroups, no accounting), creates a munge
#    key, and starts munged, slurmctld and slurmd on that configuration (SLURM_CONF), then waits
#    for the node to be idle. A daemon that does not come up fails the check with the tail of its log.
# 3. Runs the workflow with CONFIG through workflow/profiles/slurm (a copy of the profile with
#    this cluster's partition filled in) in one fresh copy of the repository, and locally in
#    another (or takes SLURM_CHECK_REFERENCE as the local run), and checks that every Parquet,
#    CSV, Markdown and JSON file under results/ and figures/ is byte-identical (sha256) between
#    the two, and that SLURM really ran the jobs.
# 4. On exit, whatever happened, cancels the jobs of this private cluster and stops the three
#    daemons it started, by their process ids.
#
# The Python interpreter (default: the repository's .venv, as `make test` creates it) needs the
# `slurm` extra (snakemake-executor-plugin-slurm). The copies point data.raw_dir at
# ../shared/data/raw, as the tests do (tests/conftest.py).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
CONFIG=${1:-config/tiny.yaml}
TARGETS=("${@:2}")                     # empty: the workflow's default target (everything)
PYTHON=${PYTHON:-$REPO/.venv/bin/python}
PARTITION=cbcheck
TIMEOUT=${SLURM_CHECK_TIMEOUT:-1200}   # seconds, for each of the two workflow runs
REFERENCE=${SLURM_CHECK_REFERENCE:-}   # a finished local run of CONFIG; empty: run one here
START=$(date +%s)

fail() { echo "slurm_check: FAILED: $*" >&2; exit 1; }
note() { echo "slurm_check [$(($(date +%s) - START)) s]: $*"; }

case $CONFIG in /*) ;; *) CONFIG=$REPO/$CONFIG ;; esac
[[ -f $CONFIG ]] || fail "config file $CONFIG not found; pass one as the first argument"
[[ -z $REFERENCE || -d $REFERENCE/results ]] \
  || fail "SLURM_CHECK_REFERENCE=$REFERENCE holds no results/; point it at a finished run of $CONFIG"
[[ -x $PYTHON ]] || fail "no Python at $PYTHON; run 'make test' first or set PYTHON=/path/to/python"
"$PYTHON" -c "import snakemake_executor_plugin_slurm" 2>/dev/null \
  || fail "$PYTHON lacks snakemake-executor-plugin-slurm; install the extra: pip install -e '.[slurm]'"

# --- 1. packages -------------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null \
   || ! command -v munged >/dev/null; then
  [[ $(id -u) -eq 0 ]] || fail "slurm-wlm and munge are not installed and this is not root: apt-get install slurm-wlm munge"
  note "installing slurm-wlm and munge with apt-get"
  # Keep the packages' init scripts from starting system-wide daemons (the usual container
  # policy-rc.d); removed again if this script created it.
  made_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && made_policy=1
  fi
  apt_rc=0
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      slurm-wlm munge; } >/tmp/slurm_check-apt.log 2>&1 || apt_rc=$?
  if [[ $made_policy -eq 1 ]]; then rm -f /usr/sbin/policy-rc.d; fi
  if [[ $apt_rc -ne 0 ]]; then tail -n 20 /tmp/slurm_check-apt.log >&2; fail "apt-get could not install slurm-wlm and munge"; fi
fi

# --- 2. a private single-node cluster -------------------------------------------------------------
TMP=$(mktemp -d /tmp/cbslurm.XXXXXX)   # short: the munge socket path must stay under 108 bytes
chmod 700 "$TMP"
PIDS=()       # daemons started here, in start order
RUN_PIDS=()   # the two Snakemake runs started here
OK=0

stop_all() {
  set +e
  # The Snakemake runs first (on TERM the SLURM one cancels its jobs), then whatever is left in
  # this private cluster's queue, then the daemons, newest first; each by its process id.
  for pid in "${RUN_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${RUN_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null
  done
  if [[ ${#PIDS[@]} -ge 3 ]]; then
    jobs_left=$(squeue -h -o %i 2>/dev/null)
    if [[ -n $jobs_left ]]; then
      scancel --full $jobs_left 2>/dev/null
      for _ in $(seq 60); do [[ -z $(squeue -h -t R,CG -o %i 2>/dev/null) ]] && break; sleep 0.5; done
    fi
  fi
  for (( i=${#PIDS[@]}-1; i>=0; i-- )); do kill "${PIDS[i]}" 2>/dev/null; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null
  done
  if [[ $OK -eq 1 && -z ${SLURM_CHECK_KEEP:-} ]]; then rm -rf "$TMP"; else echo "slurm_check: logs and copies kept in $TMP" >&2; fi
}
trap stop_all EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

log_tail() {  # name, log file
  echo "---- last lines of the $1 log ($2) ----" >&2
  tail -n 30 "$2" >&2 2>/dev/null || echo "(no log written)" >&2
}

daemon_alive() {  # name, pid, log file
  kill -0 "$2" 2>/dev/null && return 0
  log_tail "$1" "$3"
  fail "$1 exited right after start (see its log above)"
}

mkdir -p "$TMP/munge" "$TMP/state" "$TMP/spool" "$TMP/log"
chmod 700 "$TMP/munge"
if command -v mungekey >/dev/null; then
  mungekey --create --keyfile="$TMP/munge/munge.key"
else
  dd if=/dev/urandom of="$TMP/munge/munge.key" bs=1024 count=1 status=none
fi
chmod 400 "$TMP/munge/munge.key"
MUNGE_SOCKET=$TMP/munge/socket
munged --foreground --force --key-file="$TMP/munge/munge.key" --socket="$MUNGE_SOCKET" \
  --pid-file="$TMP/munge/munged.pid" --seed-file="$TMP/munge/munged.seed" \
  --log-file="$TMP/log/munged.log" >"$TMP/log/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [[ -S $MUNGE_SOCKET ]] && break; daemon_alive munged "${PIDS[0]}" "$TMP/log/munged.log"; sleep 0.2; done
munge -n -S "$MUNGE_SOCKET" | unmunge -S "$MUNGE_SOCKET" >/dev/null 2>&1 \
  || { log_tail munged "$TMP/log/munged.log"; fail "munged does not answer on $MUNGE_SOCKET"; }
note "munged up (pid ${PIDS[0]})"

HOST=$(hostname -s)
# `slurmd -C` prints this machine's node line (NodeName, CPUs, sockets, cores, RealMemory).
NODE_LINE=$(slurmd -C | head -n 1)
[[ $NODE_LINE == NodeName=* ]] || fail "slurmd -C did not describe this machine: $NODE_LINE"
NODE=${NODE_LINE#NodeName=}; NODE=${NODE%% *}
CPUS=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$NODE_LINE")
read -r CTLD_PORT SLURMD_PORT < <("$PYTHON" - <<'EOF'
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))
EOF
)
export SLURM_CONF=$TMP/slurm.conf
cat >"$SLURM_CONF" <<EOF
# Written by .ci/slurm_check.sh for a private, single-node test cluster.
ClusterName=cbcheck
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/log/slurmctld.log
SlurmdLogFile=$TMP/log/slurmd.log
# No cgroups: processes tracked through /proc, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
# No accounting daemon: job states come from slurmctld (squeue), which keeps finished jobs
# for MinJobAge seconds (longer than this check runs, so that every job's end state is seen).
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=3600
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
$NODE_LINE NodeAddr=127.0.0.1 State=UNKNOWN
# Two jobs may share each CPU (OverSubscribe=FORCE:2): a group job keeps its 2 CPUs only about
# half busy (each member starts its own Snakemake through srun), so two group jobs run side by
# side on this one node (README, "Running on a cluster": the check's time, measured).
PartitionName=$PARTITION Nodes=$NODE Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:2
EOF

# Inside a SLURM job the plugin's job-step executor clears every SLURM_* variable (SLURM_CONF
# among them) before it calls `srun`; on a real cluster srun then reads /etc/slurm/slurm.conf.
# Here a wrapper first on PATH (exported to the jobs) points srun at this cluster's file.
mkdir -p "$TMP/bin"
printf '#!/bin/sh\nSLURM_CONF=%s exec %s "$@"\n' "$SLURM_CONF" "$(command -v srun)" >"$TMP/bin/srun"
chmod +x "$TMP/bin/srun"
export PATH=$TMP/bin:$PATH

slurmctld -D -f "$SLURM_CONF" >"$TMP/log/slurmctld.out" 2>&1 &
PIDS+=($!)
sleep 1
daemon_alive slurmctld "${PIDS[1]}" "$TMP/log/slurmctld.log"
slurmd -D -f "$SLURM_CONF" -N "$NODE" >"$TMP/log/slurmd.out" 2>&1 &
PIDS+=($!)
state=""
for _ in $(seq 60); do
  daemon_alive slurmctld "${PIDS[1]}" "$TMP/log/slurmctld.log"
  daemon_alive slurmd "${PIDS[2]}" "$TMP/log/slurmd.log"
  state=$(sinfo -h -N -n "$NODE" -o %t 2>/dev/null || true)
  [[ $state == idle ]] && break
  sleep 1
done
if [[ $state != idle ]]; then
  log_tail slurmctld "$TMP/log/slurmctld.log"; log_tail slurmd "$TMP/log/slurmd.log"
  fail "node $NODE is '$state', not idle, 60 s after slurmd started"
fi
note "slurmctld (pid ${PIDS[1]}) and slurmd (pid ${PIDS[2]}) up; node $NODE idle with $CPUS CPUs"

# --- 3. the workflow through SLURM, and locally -------------------------------------------------
# Fresh copies of the repository (code, config, workflow; no results), each with config/ci.yaml
# pointing data.raw_dir at ../shared/data/raw: the tests' own helper. The local one only
# without a reference run.
COPIES=(slurm); [[ -n $REFERENCE ]] || COPIES+=(local)
"$PYTHON" - "$REPO" "$TMP" "${COPIES[@]}" <<'EOF_PY'
import sys
from pathlib import Path
sys.path.insert(0, str(Path(sys.argv[1]) / "tests"))
from conftest import copy_workflow
for name in sys.argv[3:]:
    copy_workflow(Path(sys.argv[2]) / name)
EOF_PY

# This cluster's copy of the profile: its partition, no account (there is no accounting
# database to check one against), job states from squeue, short first status check, SLURM
# logs kept, and no retries (a failure must show).
"$PYTHON" - "$REPO/workflow/profiles/slurm/config.yaml" "$TMP/profile/config.yaml" "$PARTITION" "$TMP/slurm-logs" <<'EOF_PY'
import sys
from pathlib import Path
import yaml
source, target, partition, logdir = sys.argv[1:]
profile = yaml.safe_load(Path(source).read_text())
profile["default-resources"]["slurm_partition"] = partition
profile["default-resources"].pop("slurm_account", None)
profile.update({"slurm-status-command": "squeue", "slurm-init-seconds-before-status-checks": 2,
                "slurm-keep-successful-logs": True, "slurm-logdir": logdir, "retries": 0})
Path(target).parent.mkdir(parents=True)
Path(target).write_text(yaml.safe_dump(profile, sort_keys=False))
EOF_PY

start_snakemake() {  # copy name, extra arguments...: runs in the background, pid in RUN_PIDS
  local name=$1; shift
  (cd "$TMP/$name" && PYTHONPATH=$TMP/$name/src exec timeout "$TIMEOUT" "$PYTHON" -m snakemake "$@" \
     --configfile "$CONFIG" config/ci.yaml >"$TMP/log/snakemake-$name.log" 2>&1) &
  RUN_PIDS+=($!)
}

show_failed_slurm_logs() {
  grep -l -E '^Error in rule|Traceback|Exception' "$TMP"/slurm-logs/*/*.log 2>/dev/null | head -n 3 | while read -r f; do
    echo "---- $f" >&2; tail -n 25 "$f" >&2
  done
}

# Without a reference, both runs at once: the local one fills the cores while the SLURM one waits
# for job states.
T0=$(date +%s)
start_snakemake slurm "${TARGETS[@]}" --workflow-profile "$TMP/profile" --cores "$CPUS"
WHAT="$(basename "$CONFIG")${TARGETS[*]:+ (targets: ${TARGETS[*]})}"
if [[ -n $REFERENCE ]]; then
  note "running $WHAT through SLURM (in $TMP/slurm); the local run is $REFERENCE"
  LOCAL=$REFERENCE
else
  note "running $WHAT through SLURM (in $TMP/slurm) and locally (in $TMP/local)"
  start_snakemake local "${TARGETS[@]}" --cores "$CPUS"
  LOCAL=$TMP/local
fi
slurm_rc=0; wait "${RUN_PIDS[0]}" || slurm_rc=$?
local_rc=0; [[ -n $REFERENCE ]] || wait "${RUN_PIDS[1]}" || local_rc=$?
# Each run's wall time: from the start to its log's last write.
SLURM_WALL=$(($(stat -c %Y "$TMP/log/snakemake-slurm.log") - T0))
if [[ $slurm_rc -ne 0 ]]; then
  tail -n 40 "$TMP/log/snakemake-slurm.log" >&2
  show_failed_slurm_logs
  [[ $slurm_rc -eq 124 ]] && fail "the run through SLURM took longer than $TIMEOUT s (SLURM_CHECK_TIMEOUT)"
  fail "the run through SLURM exited with $slurm_rc (log above)"
fi
if [[ $local_rc -ne 0 ]]; then
  tail -n 40 "$TMP/log/snakemake-local.log" >&2
  fail "the local run exited with $local_rc"
fi
if [[ -n $REFERENCE ]]; then
  note "SLURM run done in $SLURM_WALL s"
else
  note "SLURM run done in $SLURM_WALL s, local run in $(($(stat -c %Y "$TMP/log/snakemake-local.log") - T0)) s (side by side)"
fi

# --- 4. SLURM really ran the jobs, and the outputs match ------------------------------------------
mapfile -t JOBIDS < <(sed -n 's/.*submitted with SLURM jobid \([0-9]*\).*/\1/p' "$TMP/log/snakemake-slurm.log" | sort -un)
[[ ${#JOBIDS[@]} -gt 0 ]] || fail "the SLURM run's log names no SLURM job id: the jobs did not go through SLURM"
not_done=$(squeue -h --states=all -j "$(IFS=,; echo "${JOBIDS[*]}")" -o '%i %T' | grep -v ' COMPLETED$' || true)
[[ -z $not_done ]] || fail "SLURM jobs not COMPLETED: $not_done"
rule_jobs() { grep -E '^Finished jobid: [0-9]+ \(Rule: ' "$TMP/log/snakemake-$1.log" | grep -vc '(Rule: all)' || true; }
n_slurm=$(rule_jobs slurm)
if [[ -z $REFERENCE ]]; then
  n_local=$(rule_jobs local)
  [[ $n_slurm -eq $n_local ]] || fail "the SLURM run finished $n_slurm rule jobs, the local run $n_local"
fi
note "${#JOBIDS[@]} SLURM jobs, all COMPLETED, ran $n_slurm rule jobs"

# Results must match to the byte: Parquet, CSV, Markdown and JSON under results/ and figures/.
# Other files (PDF, PNG, HTML) are compared too and listed if they differ, as information.
checksums() {  # run directory -> "sha256  path" lines of every file under results/ and figures/
  (cd "$1" && find results figures -type f -print0 | sort -z | xargs -0 sha256sum)
}
checksums "$TMP/slurm" >"$TMP/slurm.sha256"
checksums "$LOCAL" >"$TMP/local.sha256"
if [[ ${#TARGETS[@]} -gt 0 && -n $REFERENCE ]]; then
  # The reference ran the whole config: compare what the targets built, path by path (a path the
  # SLURM run wrote and the reference lacks shows as a difference below).
  awk 'NR == FNR { built[$2]; next } $2 in built' "$TMP/slurm.sha256" "$TMP/local.sha256" >"$TMP/local.part"
  mv "$TMP/local.part" "$TMP/local.sha256"
fi
RESULTS='\.(parquet|csv|md|json)$'
n_files=$(grep -cE "$RESULTS" "$TMP/local.sha256" || true)
[[ $n_files -gt 0 ]] || fail "the local run wrote no Parquet, CSV, Markdown or JSON file under results/ or figures/"
if ! diff <(grep -E "$RESULTS" "$TMP/local.sha256") <(grep -E "$RESULTS" "$TMP/slurm.sha256") >"$TMP/sha256.diff"; then
  cat "$TMP/sha256.diff" >&2
  fail "results differ between the SLURM and the local run (< local, > SLURM)"
fi
others=$(diff <(grep -vE "$RESULTS" "$TMP/local.sha256") <(grep -vE "$RESULTS" "$TMP/slurm.sha256") \
         | sed -n 's/^[<>] [0-9a-f]*  //p' | sort -u || true)
[[ -z $others ]] || note "note: these other files differ between the two runs: $(echo $others)"
OK=1
note "PASSED: $n_files Parquet, CSV, Markdown and JSON files byte-identical between the SLURM and the local run" \
  "($(wc -l <"$TMP/local.sha256") files compared in all)"
