module github.com/robfig/cron/v3

go 1.12
