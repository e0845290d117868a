# Sourced by the scripts that choose ports for test servers (lib/testing/postgres.sh, e2e/run.sh).
# listening PORT: whether something accepts connections on 127.0.0.1:PORT.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
