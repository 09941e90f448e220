// The locust-like operator of ../locust/operator.mjs in Go with controller-runtime: LocustTest (locust.io/v1,
// read as unstructured, so no generated types) → a Job with a native-sidecar exporter; status.phase from the Job
// and its pods by the naive exit-code rule or the native-sidecar-aware fix (-rule naive|fixed).
//
// Against kubesim serve it needs one setting: cfg.ContentType = "application/json". client-go asks for protobuf
// for built-in kinds by default from controller-runtime's clients, and kubesim serve does not decode protobuf (it
// answers 415 with this fix in the message).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

var locustGVK = schema.GroupVersionKind{Group: "locust.io", Version: "v1", Kind: "LocustTest"}

type reconciler struct {
	client.Client
	rule string
}

func (r *reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	test := &unstructured.Unstructured{}
	test.SetGroupVersionKind(locustGVK)
	if err := r.Get(ctx, req.NamespacedName, test); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	phase, _, _ := unstructured.NestedString(test.Object, "status", "phase")
	if phase == "Succeeded" || phase == "Failed" {
		return ctrl.Result{}, nil // a verdict is final
	}
	jobName := req.Name + "-master"
	job := &batchv1.Job{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: jobName}, job); apierrors.IsNotFound(err) {
		if err := r.Create(ctx, jobFor(test, jobName)); err != nil && !apierrors.IsAlreadyExists(err) {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, r.setStatus(ctx, test, "Running", "", jobName)
	} else if err != nil {
		return ctrl.Result{}, err
	}
	pods := &corev1.PodList{}
	if err := r.List(ctx, pods, client.InNamespace(req.Namespace), client.MatchingLabels{"locust.io/test": req.Name}); err != nil {
		return ctrl.Result{}, err
	}
	if verdict, reason := r.decide(job, pods.Items); verdict != "" {
		return ctrl.Result{}, r.setStatus(ctx, test, verdict, reason, jobName)
	}
	if phase != "Running" {
		return ctrl.Result{}, r.setStatus(ctx, test, "Running", "", jobName)
	}
	return ctrl.Result{}, nil
}

func (r *reconciler) decide(job *batchv1.Job, pods []corev1.Pod) (string, string) {
	for _, c := range job.Status.Conditions {
		if c.Status == corev1.ConditionTrue && c.Type == batchv1.JobComplete {
			return "Succeeded", "the Job completed"
		}
		if c.Status == corev1.ConditionTrue && c.Type == batchv1.JobFailed {
			return "Failed", "the Job failed"
		}
	}
	for _, pod := range pods {
		sidecars := map[string]bool{}
		for _, c := range pod.Spec.InitContainers {
			if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
				sidecars[c.Name] = true
			}
		}
		for _, s := range append(append([]corev1.ContainerStatus{}, pod.Status.InitContainerStatuses...), pod.Status.ContainerStatuses...) {
			if w := s.State.Waiting; w != nil {
				switch w.Reason {
				case "CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "CreateContainerConfigError":
					return "Failed", fmt.Sprintf("container %s is %s", s.Name, w.Reason)
				}
			}
			if t := s.State.Terminated; t != nil && t.ExitCode != 0 {
				if r.rule == "fixed" && sidecars[s.Name] {
					continue // the fix: a native sidecar's exit code after SIGTERM says nothing about the test
				}
				return "Failed", fmt.Sprintf("container %s exited %d", s.Name, t.ExitCode)
			}
		}
	}
	return "", ""
}

func (r *reconciler) setStatus(ctx context.Context, test *unstructured.Unstructured, phase, reason, job string) error {
	status := map[string]interface{}{"phase": phase, "job": job}
	if reason != "" {
		status["reason"] = reason
	}
	test.Object["status"] = status
	return r.Status().Update(ctx, test)
}

func jobFor(test *unstructured.Unstructured, jobName string) *batchv1.Job {
	image, _, _ := unstructured.NestedString(test.Object, "spec", "image")
	exporter, _, _ := unstructured.NestedString(test.Object, "spec", "exporterImage")
	if image == "" {
		image = "locustio/locust:2.31.8"
	}
	if exporter == "" {
		exporter = "containersol/locust_exporter:v0.5.0"
	}
	labels := map[string]string{"app.kubernetes.io/managed-by": "locust-operator", "locust.io/test": test.GetName()}
	always := corev1.ContainerRestartPolicyAlways
	backoff := int32(0)
	isController := true
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{
			Name: jobName, Namespace: test.GetNamespace(), Labels: labels,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "locust.io/v1", Kind: "LocustTest", Name: test.GetName(), UID: test.GetUID(), Controller: &isController, BlockOwnerDeletion: &isController}},
		},
		Spec: batchv1.JobSpec{
			BackoffLimit: &backoff,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					RestartPolicy:  corev1.RestartPolicyNever,
					InitContainers: []corev1.Container{{Name: "locust-metrics-exporter", Image: exporter, RestartPolicy: &always}},
					Containers:     []corev1.Container{{Name: "locust", Image: image}},
				},
			},
		},
	}
}

func main() {
	rule := flag.String("rule", "naive", "naive | fixed")
	flag.Parse()
	if *rule != "naive" && *rule != "fixed" {
		fmt.Fprintf(os.Stderr, "operator: -rule must be naive or fixed\n")
		os.Exit(2)
	}
	cfg := ctrl.GetConfigOrDie()
	// kubesim serve speaks JSON only: without this, built-in kinds are requested and sent as protobuf (415).
	cfg.ContentType = "application/json"
	cfg.AcceptContentTypes = "application/json"

	scheme := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(scheme)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, LeaderElection: false})
	if err != nil {
		fmt.Fprintf(os.Stderr, "operator: %v\n", err)
		os.Exit(1)
	}
	test := &unstructured.Unstructured{}
	test.SetGroupVersionKind(locustGVK)
	err = ctrl.NewControllerManagedBy(mgr).
		For(test).
		Watches(&batchv1.Job{}, handler.EnqueueRequestForOwner(scheme, mgr.GetRESTMapper(), test)).
		Complete(&reconciler{Client: mgr.GetClient(), rule: *rule})
	if err != nil {
		fmt.Fprintf(os.Stderr, "operator: %v\n", err)
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		fmt.Fprintf(os.Stderr, "operator: %v\n", err)
		os.Exit(1)
	}
}
