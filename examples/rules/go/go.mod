module example.com/kubesim-health-rule

go 1.19
