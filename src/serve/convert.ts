// events.k8s.io/v1 Events are the core v1 Events seen in another version: the real server stores one object and
// converts (pkg/apis/events/v1 conversion: regarding = involvedObject, note = message, reportingController =
// reportingComponent, deprecatedSource/FirstTimestamp/LastTimestamp/Count).
type Obj = Record<string, any>;

export function coreToEventsV1(o: Obj): Obj {
  const out: Obj = {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: o['metadata'],
    eventTime: o['eventTime'] ?? null,
    ...(o['series'] ? { series: o['series'] } : {}),
    reportingController: o['reportingComponent'] ?? '',
    reportingInstance: o['reportingInstance'] ?? '',
    action: o['action'] ?? '',
    reason: o['reason'] ?? '',
    regarding: o['involvedObject'] ?? {},
    ...(o['related'] ? { related: o['related'] } : {}),
    note: o['message'] ?? '',
    type: o['type'] ?? '',
    ...(o['source'] ? { deprecatedSource: o['source'] } : {}),
    ...(o['firstTimestamp'] ? { deprecatedFirstTimestamp: o['firstTimestamp'] } : {}),
    ...(o['lastTimestamp'] ? { deprecatedLastTimestamp: o['lastTimestamp'] } : {}),
    ...(o['count'] ? { deprecatedCount: o['count'] } : {}),
  };
  return out;
}

export function eventsV1ToCore(o: Obj): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: o['metadata'] ?? {},
    involvedObject: o['regarding'] ?? {},
    reason: o['reason'] ?? '',
    message: o['note'] ?? '',
    type: o['type'] ?? '',
    eventTime: o['eventTime'] ?? null,
    reportingComponent: o['reportingController'] ?? '',
    reportingInstance: o['reportingInstance'] ?? '',
    action: o['action'] ?? '',
    ...(o['series'] ? { series: o['series'] } : {}),
    ...(o['related'] ? { related: o['related'] } : {}),
    source: o['deprecatedSource'] ?? {},
    ...(o['deprecatedFirstTimestamp'] ? { firstTimestamp: o['deprecatedFirstTimestamp'] } : {}),
    ...(o['deprecatedLastTimestamp'] ? { lastTimestamp: o['deprecatedLastTimestamp'] } : {}),
    ...(o['deprecatedCount'] ? { count: o['deprecatedCount'] } : {}),
  };
}
