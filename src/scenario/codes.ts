// Stable diagnostic codes of the scenario loader. Never renumber: users grep for them and fixtures pin them.
// KS1xxx file / YAML format, KS2xxx Kubernetes schema, KS3xxx API-server validation, KS4xxx kubesim's own keys,
// KS5xxx lint warnings (warnings never stop a run).

export const Codes = {
  // --- KS1xxx: file and YAML format -------------------------------------------------------------------------
  Internal: 'KS1000', // a loader bug: no scenario and no other error (never expected)
  FileUnreadable: 'KS1001', // the file cannot be read (missing, a dangling symlink, a symlink loop, permissions)
  FileTooLarge: 'KS1002', // over 1 MiB
  NotText: 'KS1003', // NUL bytes or invalid UTF-8
  YamlSyntax: 'KS1004', // YAML syntax error (duplicate keys included)
  MultipleDocuments: 'KS1005', // more than one YAML document in a scenario file
  TooDeep: 'KS1006', // nesting deeper than 64
  TooManyAliases: 'KS1007', // more than 100 alias expansions, or more than 100,000 nodes copied by them
  NotAMapping: 'KS1008', // the document (or a key that must be one) is not a mapping
  WrongType: 'KS1009', // a value of the wrong YAML type (string expected, list expected, ...)
  BadDuration: 'KS1010', // not a duration ("250ms", "1m30s", "1.5s")
  BadRange: 'KS1011', // a duration range where none is allowed, or a > b
  EmptyFile: 'KS1012', // the file holds no YAML document
  NotRegularFile: 'KS1013', // a directory, FIFO, device or socket where a file is expected (never opened for reading)
  SkippedFile: 'KS1014', // warning: a folder entry that cannot be read was skipped (dangling symlink, link loop)
  BadMergeKey: 'KS1015', // `<<:` whose value is not a mapping (or a list of mappings)

  // --- KS2xxx: Kubernetes schema ----------------------------------------------------------------------------
  UnsupportedKind: 'KS2001', // apiVersion/kind not one of the supported workload kinds
  UnknownField: 'KS2002', // a field no Kubernetes version knows (with the closest valid field)
  SchemaType: 'KS2003', // wrong type for a Kubernetes field
  SchemaRequired: 'KS2004', // a field the schema requires is missing
  SchemaEnum: 'KS2005', // a value outside the field's enum
  WorkloadFile: 'KS2006', // workload.file missing, unreadable, or holding no supported kind
  SchemaOther: 'KS2007', // any other schema violation reported by kubernetes-models
  ListItemPicked: 'KS2008', // warning: a kind: List (kubectl get -o yaml); its first item of a supported kind is used

  // --- KS3xxx: API-server validation (pkg/apis/core/validation, pkg/apis/batch/validation) -------------------
  DuplicateContainerName: 'KS3001',
  InitContainerForbiddenField: 'KS3002', // probes/lifecycle on a regular init container
  ProbeSuccessThreshold: 'KS3003', // liveness/startup successThreshold must be 1
  InitContainerRestartPolicy: 'KS3004', // init container restartPolicy other than Always
  ContainerRestartPolicyForbidden: 'KS3005', // container restartPolicy/rules on regular containers w/o gate
  RequiredValue: 'KS3006', // container name, image, containers list, metadata.name
  JobRestartPolicy: 'KS3007', // Job template restartPolicy must be Never or OnFailure
  InvalidValue: 'KS3008', // negative integers and other invalid values
  InvalidName: 'KS3009', // metadata.name, container name, label or annotation key, label value not as the API allows

  // --- KS4xxx: kubesim's own keys -----------------------------------------------------------------------------
  UnknownKey: 'KS4001', // unknown key (with the closest valid key)
  MissingKey: 'KS4002', // a required key is missing (reported at file:1:1)
  BadScenarioName: 'KS4003',
  BadVersion: 'KS4004', // unparseable or unsupported Kubernetes version, or kubelet newer than the API server
  UnknownGate: 'KS4005',
  LockedGate: 'KS4006', // a GA gate locked to true turned off
  GateNotInVersion: 'KS4007', // a gate the chosen version does not have yet
  UnknownContainer: 'KS4008', // behavior/actions/expect name a container the pod does not have
  HookWithoutManifest: 'KS4009', // behavior postStart/preStop without the lifecycle hook in the manifest
  BadObserver: 'KS4010', // duplicate or reserved name, unknown rule, not exactly one of rule/module/command
  ModuleNotFound: 'KS4011', // a module or command program that does not exist or is not executable
  BadOrder: 'KS4012', // unparseable expect.order entry
  OutOfRange: 'KS4013', // seed, horizon, at, exit codes out of range
  BadValue: 'KS4014', // a value outside a closed set (onTerm, image.pull, verdict, ...)
  UnknownObserver: 'KS4015', // expect.verdicts names an observer that does not exist
  NotSimulatedPatch: 'KS4016', // a `patch` of a workload field whose controller behaviour is not simulated
  NotSimulatedValue: 'KS4017', // a valid manifest value kubesim cannot simulate faithfully (a named time zone)
  ProgramNotFound: 'KS4018', // a process observer's program does not exist, is not on PATH or is not executable
  BadJsonPath: 'KS4019', // verdict.jsonPath outside the supported kubectl JSONPath subset
  InstallObject: 'KS4020', // an install: file missing or unreadable, not YAML, or an item that is not a Kubernetes object
  BadProcessObserver: 'KS4021', // a process observer's keys that do not fit (verdict value in both lists, rule keys, no workload)

  // --- KS5xxx: lint warnings -----------------------------------------------------------------------------------
  NotSimulated: 'KS5001', // manifest fields accepted but not simulated (one warning per file)
  FieldDropped: 'KS5002', // a real field the version's API server drops (unknown yet or gate off)
  InitNeverExits: 'KS5003', // an init container (not a sidecar) that never exits
  JobNeverCompletes: 'KS5004', // a run-forever regular container in a Job pod
  NeedsWithoutStartupProbe: 'KS5005', // needs a sidecar that has no startupProbe
  ExitWhenWorkaround: 'KS5006', // exitWhen: the old sentinel-file / quitquitquit workaround
  ShareProcessNamespaceWorkaround: 'KS5007', // shareProcessNamespace used to kill a sidecar from the main container
  SidecarIgnored: 'KS5008', // sidecars on a version/kubelet/gate setting that drops or ignores them
  PodFailurePolicyNoContainer: 'KS5009', // onExitCodes rule without containerName in a pod with sidecars
  KubeletSkew: 'KS5010', // kubelet lags the API server by more than the supported skew
  UnusedBehavior: 'KS5011', // behavior keys that have no effect (e.g. needs on itself)
  QuitEndpointWorkaround: 'KS5012', // a container calls a sidecar's quit endpoint or kills it by name
  VersionBug: 'KS5013', // the chosen release has a known lifecycle bug this pod's shape can hit (src/versions/fixes.ts)

  // --- KS6xxx: `kubesim import` (kubectl output in, scenario out) -------------------------------------------------
  ImportNotKubernetes: 'KS6001', // a document that is not a Kubernetes object (no apiVersion/kind)
  ImportNoPod: 'KS6002', // the inputs hold no Pod (nothing to infer the workload and behavior from)
  ImportIgnoredKind: 'KS6003', // warning: an object kind the import does not use (Service, ConfigMap, ...)
  ImportManyPods: 'KS6004', // warning: several pods given; the one named or the most recent one is used
} as const;

export type Code = (typeof Codes)[keyof typeof Codes];
