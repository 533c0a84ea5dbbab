package kubelet

import (
	"path"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// This file is what Infer knows of programs and images by name.

// quick are programs that finish at once (in a container: no terminal,
// no stdin, so cat and read return at once too).
const quick = " echo printf env printenv date cat ls hostname mkdir cp mv id whoami uname pwd test [ [[ true : " +
	"nslookup dig host getent wget curl df du ps grep egrep head wc sort uniq md5sum sha256sum cksum base64 export cd set " +
	"unset trap seq expr sync chmod chown ln tee sed awk cut tr find mount umount nproc free uptime basename dirname " +
	"readlink stat which mktemp read kill wait source . "

// servers are programs and images that serve until they are stopped.
const servers = " nginx httpd apache2 apache2-foreground httpd-foreground redis-server redis mysqld mysql mariadb postgres " +
	"mongod mongo memcached haproxy caddy traefik envoy etcd rabbitmq-server rabbitmq pause echoserver hello-app " +
	"http-echo whoami-server registry vault consul grafana prometheus "

// isQuick says the program finishes at once.
func isQuick(name string) bool { return strings.Contains(quick, " "+name+" ") }

// runsUntilStopped says the program runs until it is stopped: a server,
// tail -f, yes, nc -l, python -m http.server.
func runsUntilStopped(name string, args []string) bool {
	switch name {
	case "tail":
		return hasAny(args, "-f", "-F", "--follow")
	case "yes":
		return true
	case "nc", "netcat":
		return hasAny(args, "-l", "-lk", "-kl", "-lp", "-lv")
	case "python", "python3", "python2":
		return len(args) >= 2 && args[0] == "-m" && (args[1] == "http.server" || args[1] == "SimpleHTTPServer")
	}
	return strings.Contains(servers, " "+name+" ")
}

func hasAny(args []string, flags ...string) bool {
	for _, a := range args {
		if contains(flags, a) {
			return true
		}
	}
	return false
}

// isProgram says a container's first argument names a program Infer
// knows, so the args are the whole command line (an image without an
// entrypoint, such as busybox).
func isProgram(arg string) bool {
	name := path.Base(arg)
	return isShell(name) || name == "sleep" || name == "exit" || name == "false" || name == "touch" || name == "rm" ||
		isQuick(name) || runsUntilStopped(name, nil)
}

// imageName is the image's name without its registry's path, tag and
// digest: "registry.k8s.io/nginx-slim:0.8" is "nginx-slim".
func imageName(image string) string {
	name, _, _ := strings.Cut(image, "@")
	name = path.Base(name)
	name, _, _ = strings.Cut(name, ":")
	return name
}

// isServerImage says an image run with its own entrypoint serves until
// it is stopped: the common servers ("nginx", "nginx-slim",
// "redis-alpine"…), and agnhost's serving subcommands.
func isServerImage(image string, args []string) bool {
	name := imageName(image)
	if name == "agnhost" {
		return len(args) > 0 && contains([]string{"netexec", "serve-hostname", "pause", "liveness", "porter", "test-webserver"}, args[0])
	}
	base, _, _ := strings.Cut(name, "-")
	return strings.Contains(servers, " "+name+" ") || strings.Contains(servers, " "+base+" ")
}

// isAgnhostLiveness says the container is agnhost's liveness server (the
// Kubernetes documentation's liveness-http example).
func isAgnhostLiveness(c *api.Container) bool {
	return imageName(c.Image) == "agnhost" && len(c.Command) == 0 && len(c.Args) > 0 && c.Args[0] == "liveness"
}

// applyProbes reads the container's exec probes against the files its
// script touched and removed: ready once the file a readiness probe reads
// exists, failing liveness once the file a liveness probe reads is gone.
func (r *scriptRun) applyProbes(b *Behavior, c *api.Container) {
	if f, ok := probedFile(c.ReadinessProbe); ok {
		if t, ok := r.created[f]; ok && t > 0 {
			b.ReadyMS = t
		}
	}
	if f, ok := probedFile(c.LivenessProbe); ok {
		if t, ok := r.removed[f]; ok {
			b.LivenessFailAfterMS = max(t, 1)
		}
	}
}

// probeProgram is the program an exec probe runs (the one command of its
// sh -c script).
func probeProgram(p *api.Probe) string {
	words := p.Exec.Command
	if script, ok := shellScript(words); ok {
		if cmds := splitScript(script); len(cmds) == 1 && len(cmds[0].words) > 0 {
			return cmds[0].words[0]
		}
	}
	return words[0]
}

// probedFile is the file an exec probe checks: cat FILE, test -e FILE,
// [ -f FILE ], ls FILE, stat FILE, as a command or a sh -c script.
func probedFile(p *api.Probe) (string, bool) {
	if p == nil || p.Exec == nil || len(p.Exec.Command) == 0 {
		return "", false
	}
	words := p.Exec.Command
	if script, ok := shellScript(words); ok {
		cmds := splitScript(script)
		if len(cmds) != 1 || len(cmds[0].words) == 0 {
			return "", false
		}
		words = cmds[0].words
	}
	switch path.Base(words[0]) {
	case "cat", "ls", "stat", "test", "[":
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") && w != "]" {
				return w, true
			}
		}
	}
	return "", false
}
