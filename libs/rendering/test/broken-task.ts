// A ThreadPool task module that cannot load, for the pool's own tests: a broken install.
throw new Error('this task module cannot load');
