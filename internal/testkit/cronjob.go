package testkit

// ZonedCronJob is a CronJob that runs a report every minute on the clock
// of zone (its spec.timeZone).
func ZonedCronJob(name, zone string) string {
	return `apiVersion: batch/v1
kind: CronJob
metadata:
  name: ` + name + `
spec:
  schedule: "* * * * *"
  timeZone: ` + zone + `
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
            - name: report
              image: example/report:v1
`
}
