#!/usr/bin/env bash
# A one-node Slurm on this machine, for the sweep's integration test and for
# trying `agxsim sweep slurm` without a cluster.
#
#   scripts/slurm-local.sh start DIR   # prints the SLURM_CONF to export
#   scripts/slurm-local.sh stop DIR
#
# Needs root and Debian's slurmctld, slurmd, slurm-client and munge
# (scripts/setup-deps.sh installs them). No systemd: the daemons run in the
# foreground of nothing, with their state, spool, pid and log files in DIR;
# proctrack/linuxproc and task/none need no cgroups. `start` exits 3 with the
# reason on stderr when this machine cannot run them (the test reports
# itself skipped then), 0 when the node is idle and takes jobs.
set -euo pipefail

cmd="${1:-}"
dir="${2:-}"
if [ -z "$cmd" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|stop DIR" >&2
    exit 2
fi
cannot() {
    echo "slurm-local: cannot run Slurm here: $*" >&2
    exit 3
}

stop() {
    for daemon in slurmd slurmctld; do
        if [ -f "$dir/$daemon.pid" ]; then
            pid="$(cat "$dir/$daemon.pid")"
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null || true
            rm -f "$dir/$daemon.pid"
        fi
    done
    # munged only if this script started it.
    if [ -f "$dir/munged.started" ] && [ -f /run/munge/munged.pid ]; then
        kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
        rm -f "$dir/munged.started"
    fi
}

case "$cmd" in
stop)
    stop
    exit 0
    ;;
start) ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac

[ "$(id -u)" -eq 0 ] || cannot "not root (slurmd and munged need it)"
for tool in slurmctld slurmd sbatch squeue sinfo munged munge unmunge; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || cannot "$tool is not installed (Debian: slurmctld slurmd slurm-client munge)"
done
export PATH="$PATH:/usr/sbin"
[ -r /etc/munge/munge.key ] || cannot "/etc/munge/munge.key is missing (reinstall munge)"

mkdir -p "$dir"/{state,spool,log}
dir="$(cd "$dir" && pwd)"
host="$(hostname -s)"
cpus="$(nproc)"
# Ports of their own, free now, so that another Slurm on the machine (or
# another of these) is left alone.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
    local p
    for _ in $(seq 50); do
        p=$((20000 + RANDOM % 40000))
        port_in_use "$p" || port_in_use $((p + 1)) || { echo "$p"; return; }
    done
    cannot "no free port pair found"
}
ctld_port="$(free_port)"
slurmd_port=$((ctld_port + 1))

cat >"$dir/slurm.conf" <<EOF
ClusterName=agxsim-local
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
MaxArraySize=10001
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

# munge: reuse a running munged, else start one.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    mkdir -p /run/munge
    chown munge:munge /run/munge 2>/dev/null || cannot "no munge user (reinstall munge)"
    su -s /bin/sh munge -c /usr/sbin/munged || cannot "munged does not start"
    touch "$dir/munged.started"
    for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
    munge -n | unmunge >/dev/null 2>&1 || { stop; cannot "munge does not authenticate"; }
fi

export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" || { stop; cannot "slurmctld does not start (see $dir/log/slurmctld.log)"; }
slurmd -f "$SLURM_CONF" || { stop; cannot "slurmd does not start (see $dir/log/slurmd.log)"; }
for daemon in slurmctld slurmd; do
    for _ in $(seq 50); do [ -s "$dir/$daemon.pid" ] && break; sleep 0.1; done
    kill -0 "$(cat "$dir/$daemon.pid" 2>/dev/null || echo 0)" 2>/dev/null ||
        { stop; cannot "$daemon exited at start (see $dir/log/$daemon.log)"; }
done
state=""
for _ in $(seq 100); do
    state="$(sinfo -h -N -o %t 2>/dev/null | head -1 || true)"
    [ "$state" = "idle" ] && break
    sleep 0.2
done
if [ "$state" != "idle" ]; then
    tail -n 5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
    stop
    cannot "the node did not come up idle (state '${state:-none}')"
fi
echo "$SLURM_CONF"
