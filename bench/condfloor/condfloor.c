// condfloor.c: the floor of Solve's conditioning check
// (docs/bench/lapack.md#the-conditioning-check): dgetrf + dgetrs with one
// right-hand side against, on its factors, LAPACK's dgecon, the same dlacn2
// iteration driven by dlatrs (what dgecon does, timed without its wrapper)
// and by plain dtrsv (what lapack.CheckCondition does), and one product by
// A^-1 (two dtrsv), interleaved round by round; min and median per n, and
// how many products dlacn2 asked for. Not built by go (no Go files here):
//   gcc -O2 -o /tmp/condfloor bench/condfloor/condfloor.c -lopenblas -lm
//   OPENBLAS_CORETYPE=Haswell /tmp/condfloor 1      (OpenBLAS threads)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include <cblas.h>
extern void dgetrf_(int*,int*,double*,int*,int*,int*);
extern void dgetrs_(char*,int*,int*,double*,int*,int*,double*,int*,int*,size_t);
extern void dgecon_(char*,int*,double*,int*,double*,double*,double*,int*,int*,size_t);
extern void dlacn2_(int*,double*,double*,int*,double*,int*,int*);
extern void dlatrs_(char*,char*,char*,char*,int*,double*,int*,double*,double*,double*,int*,size_t,size_t,size_t,size_t);
extern void openblas_set_num_threads(int);
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
static int nsolves;
// dlacn2 driven by plain dtrsv (what lapis's estimator does)
static double est_trsv(int n,double*lu,double*w,int*iw){
  int kase=0,isave[3]; double est; nsolves=0;
  for(;;){ dlacn2_(&n,w+n,w,iw,&est,&kase,isave); if(!kase)break; nsolves++;
    if(kase==1){cblas_dtrsv(CblasColMajor,CblasLower,CblasNoTrans,CblasUnit,n,lu,n,w,1);cblas_dtrsv(CblasColMajor,CblasUpper,CblasNoTrans,CblasNonUnit,n,lu,n,w,1);}
    else {cblas_dtrsv(CblasColMajor,CblasUpper,CblasTrans,CblasNonUnit,n,lu,n,w,1);cblas_dtrsv(CblasColMajor,CblasLower,CblasTrans,CblasUnit,n,lu,n,w,1);} }
  return est;
}
static double est_latrs(int n,double*lu,double*w,int*iw){
  int kase=0,isave[3],info; double est,sl,su; char normin='N'; nsolves=0;
  for(;;){ dlacn2_(&n,w+n,w,iw,&est,&kase,isave); if(!kase)break; nsolves++;
    if(kase==1){dlatrs_("L","N","U",&normin,&n,lu,&n,w,&sl,w+2*n,&info,1,1,1,1);dlatrs_("U","N","N",&normin,&n,lu,&n,w,&su,w+3*n,&info,1,1,1,1);}
    else {dlatrs_("U","T","N",&normin,&n,lu,&n,w,&su,w+3*n,&info,1,1,1,1);dlatrs_("L","T","U",&normin,&n,lu,&n,w,&sl,w+2*n,&info,1,1,1,1);}
    normin='Y'; }
  return est;
}
int main(int argc,char**argv){
  int nth=atoi(argv[1]); openblas_set_num_threads(nth);
  int ns[]={100,200,500,1000};
  printf("threads=%d; times in us: min / median of the rounds\n",nth);
  printf("%5s | %-19s | %-19s | %-19s | %-19s | %-19s | %s\n","n","getrf+getrs","dgecon","dlacn2+dlatrs","dlacn2+dtrsv","2 dtrsv (1 A^-1)","gecon%, trsv-est%, A^-1 apps");
  for(int k=0;k<4;k++){int n=ns[k]; int R = n<=200?400: n==500?60:16; 
    double *a=malloc(8*n*n),*lu=malloc(8*n*n),*lu2=malloc(8*n*n),*b=malloc(8*n),*w=malloc(8*n*8); int*ip=malloc(4*n),*iw=malloc(4*n),info,one=1;
    srand(1); for(int i=0;i<n*n;i++)a[i]=rand()/(double)RAND_MAX-0.5;
    double anorm=0; for(int j=0;j<n;j++){double s=0;for(int i=0;i<n;i++)s+=fabs(a[i+j*n]);if(s>anorm)anorm=s;}
    memcpy(lu,a,8*n*n); dgetrf_(&n,&n,lu,&n,ip,&info);
    double *t[5]; for(int q=0;q<5;q++)t[q]=malloc(8*R); double rc,e1,e2; int apps=0;
    for(int r=0;r<R;r++){ double t0;
      memcpy(lu2,a,8*n*n); for(int i=0;i<n;i++)b[i]=1;
      t0=now(); dgetrf_(&n,&n,lu2,&n,ip,&info);dgetrs_("N",&n,&one,lu2,&n,ip,b,&n,&info,1); t[0][r]=now()-t0;
      t0=now(); dgecon_("1",&n,lu,&n,&anorm,&rc,w,iw,&info,1); t[1][r]=now()-t0;
      t0=now(); e1=est_latrs(n,lu,w,iw); t[2][r]=now()-t0;
      t0=now(); e2=est_trsv(n,lu,w,iw); t[3][r]=now()-t0; apps=nsolves;
      for(int i=0;i<n;i++)b[i]=1.0/n;
      t0=now(); cblas_dtrsv(CblasColMajor,CblasLower,CblasNoTrans,CblasUnit,n,lu,n,b,1);cblas_dtrsv(CblasColMajor,CblasUpper,CblasNoTrans,CblasNonUnit,n,lu,n,b,1); t[4][r]=now()-t0;
    }
    double mn[5],md[5]; for(int q=0;q<5;q++){qsort(t[q],R,8,cmp);mn[q]=t[q][0]*1e6;md[q]=t[q][R/2]*1e6;}
    printf("%5d | %8.1f / %8.1f | %8.1f / %8.1f | %8.1f / %8.1f | %8.1f / %8.1f | %8.1f / %8.1f | %.0f%%, %.0f%% (median), %d (rcond %.3g, est %.6g %.6g)\n",n,mn[0],md[0],mn[1],md[1],mn[2],md[2],mn[3],md[3],mn[4],md[4],100*md[1]/md[0],100*md[3]/md[0],apps,rc,e1,e2);
  }
}
