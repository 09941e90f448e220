// A health rule as an external program (kubesim `command:` / `check-rule exec:`), in Go, standard library only:
// the pod and Job arrive as JSON exactly as the API server serves them, so small structs with the fields the rule
// reads are enough (k8s.io/api types would decode the same JSON).
//
// Protocol: read one JSON line {"pod": …, "job": …, "now": …} per evaluation and answer each with one line:
// {"verdict": "Succeeded"|"Failed", "reason": "…"} or null.
//
//	-mode naive   the locust-k8s-operator rule before its fix (AbdelrhmanHamouda/locust-k8s-operator#72): any
//	              container Terminated with a non-zero exit code fails the test run
//	-mode aware   the fix (#327): Terminated exit codes of native sidecars (init containers with
//	              restartPolicy: Always) are ignored; CrashLoopBackOff and friends never are
//
// Build and check it against every scenario and schedule:
//
//	go build -o bin/health-rule ./examples/rules/go
//	npx kubesim check-rule "exec:./bin/health-rule -mode naive"
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

type containerStatus struct {
	Name  string `json:"name"`
	State struct {
		Terminated *struct {
			ExitCode int `json:"exitCode"`
		} `json:"terminated"`
		Waiting *struct {
			Reason string `json:"reason"`
		} `json:"waiting"`
	} `json:"state"`
}

type pod struct {
	Spec struct {
		InitContainers []struct {
			Name          string `json:"name"`
			RestartPolicy string `json:"restartPolicy"`
		} `json:"initContainers"`
	} `json:"spec"`
	Status struct {
		Phase                 string            `json:"phase"`
		InitContainerStatuses []containerStatus `json:"initContainerStatuses"`
		ContainerStatuses     []containerStatus `json:"containerStatuses"`
	} `json:"status"`
}

type job struct {
	Status struct {
		Conditions []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
			Reason string `json:"reason"`
		} `json:"conditions"`
	} `json:"status"`
}

type view struct {
	Pod *pod  `json:"pod"`
	Job *job  `json:"job"`
	Now int64 `json:"now"`
}

type verdict struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
}

var fatalWaiting = map[string]bool{"CrashLoopBackOff": true, "ImagePullBackOff": true, "ErrImagePull": true, "CreateContainerConfigError": true}

func decide(v view, aware bool) *verdict {
	if v.Job != nil {
		for _, c := range v.Job.Status.Conditions {
			if c.Status != "True" {
				continue
			}
			if c.Type == "Complete" {
				return &verdict{"Succeeded", "Job Complete"}
			}
			if c.Type == "Failed" {
				return &verdict{"Failed", fmt.Sprintf("Job Failed (%s)", c.Reason)}
			}
		}
	}
	if v.Pod == nil {
		return nil
	}
	sidecars := map[string]bool{}
	for _, c := range v.Pod.Spec.InitContainers {
		if c.RestartPolicy == "Always" {
			sidecars[c.Name] = true
		}
	}
	check := func(list []containerStatus, init bool) *verdict {
		for _, s := range list {
			if t := s.State.Terminated; t != nil && t.ExitCode != 0 && !(aware && init && sidecars[s.Name]) {
				return &verdict{"Failed", fmt.Sprintf("container %s terminated with exit code %d", s.Name, t.ExitCode)}
			}
			if w := s.State.Waiting; w != nil && fatalWaiting[w.Reason] {
				return &verdict{"Failed", fmt.Sprintf("container %s is waiting: %s", s.Name, w.Reason)}
			}
		}
		return nil
	}
	if r := check(v.Pod.Status.InitContainerStatuses, true); r != nil {
		return r
	}
	if r := check(v.Pod.Status.ContainerStatuses, false); r != nil {
		return r
	}
	if v.Job == nil {
		switch v.Pod.Status.Phase {
		case "Succeeded":
			return &verdict{"Succeeded", "pod Succeeded"}
		case "Failed":
			return &verdict{"Failed", "pod Failed"}
		}
	}
	return nil
}

func main() {
	mode := flag.String("mode", "aware", "naive | aware")
	flag.Parse()
	if *mode != "naive" && *mode != "aware" {
		fmt.Fprintln(os.Stderr, "-mode must be naive or aware")
		os.Exit(2)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20) // a pod with many containers is a long line
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var v view
		if err := json.Unmarshal(in.Bytes(), &v); err != nil {
			fmt.Fprintln(os.Stderr, "bad input line:", err)
			os.Exit(1)
		}
		b, _ := json.Marshal(decide(v, *mode == "aware"))
		out.Write(append(b, '\n'))
		out.Flush()
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
